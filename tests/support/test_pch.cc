// The translation unit that builds the tests' precompiled header
// (tests/CMakeLists.txt, L0SPV_TEST_PCH): every test executable reuses it,
// so gtest, gmock, abseil's status types and the standard library are parsed
// once per build instead of once per test file.
