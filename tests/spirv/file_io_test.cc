// File helpers: errors name the path; writes are atomic (temporary file in
// the same directory, then rename), so readers never see a partial file.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "spirv/binary.h"
#include "tests/spirv/test_support.h"

namespace l0spv::spirv {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class FileIoTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::path(::testing::TempDir()) /
           (std::string("l0spv_file_io_") + info->name() + "_" +
            std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::vector<std::string> DirectoryEntries() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir_))
      names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }

  static std::string Contents(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

  fs::path dir_;
};

TEST_F(FileIoTest, ReadModuleFileOnMissingPathIsNotFoundNamingThePath) {
  const std::string path = (dir_ / "no_such_module.spv").string();
  auto m = ReadModuleFile(path);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(m.status().message(), HasSubstr(path));
  EXPECT_THAT(m.status().message(), HasSubstr("No such file"));
}

TEST_F(FileIoTest, ReadingADirectoryIsAnErrorNotACrash) {
  // std::ifstream opens a directory; the first read fails with EISDIR.
  auto bytes = ReadFileBytes(dir_.string());
  ASSERT_FALSE(bytes.ok());
  EXPECT_THAT(bytes.status().message(), HasSubstr(dir_.string()));
  EXPECT_THAT(bytes.status().message(), HasSubstr("directory"));
  auto m = ReadModuleFile(dir_.string());
  ASSERT_FALSE(m.ok());
  EXPECT_THAT(m.status().message(), HasSubstr("directory"));
}

TEST_F(FileIoTest, ReadsFilesLargerThanOneBuffer) {
  std::vector<uint8_t> big(200000);
  for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<uint8_t>(i * 7);
  const std::string path = (dir_ / "big.bin").string();
  ASSERT_TRUE(WriteFileBytes(path, big).ok());
  auto bytes = ReadFileBytes(path);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  EXPECT_EQ(*bytes, big);
}

TEST_F(FileIoTest, ReadModuleFileOnGarbageNamesPathAndWord) {
  const std::string path = (dir_ / "garbage.spv").string();
  const std::vector<uint8_t> garbage = {'n', 'o', 't', ' ', 's', 'p', 'v', '!'};
  ASSERT_TRUE(WriteFileBytes(path, garbage).ok());
  auto m = ReadModuleFile(path);
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(m.status().message(), HasSubstr(path));
  EXPECT_THAT(m.status().message(), HasSubstr("word 0 ("));
  EXPECT_THAT(m.status().message(), HasSubstr("bad magic"));
}

TEST_F(FileIoTest, WriteThenReadModuleFile) {
  auto words = test::AssembleHandWritten("switches");
  ASSERT_TRUE(words.ok()) << words.status();
  const std::vector<uint8_t> big = WordsToBytes(*words, Endianness::kBig);
  const std::string path = (dir_ / "module.spv").string();
  ASSERT_TRUE(WriteFileBytes(path, big).ok());
  auto bytes = ReadFileBytes(path);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  EXPECT_EQ(*bytes, big);
  auto m = ReadModuleFile(path);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->endianness, Endianness::kBig);
  EXPECT_EQ(WriteModule(*m), big);
}

TEST_F(FileIoTest, WriteFileBytesLeavesNoTemporaryFile) {
  const std::vector<uint8_t> bytes = {1, 2, 3, 4};
  ASSERT_TRUE(WriteFileBytes((dir_ / "out.bin").string(), bytes).ok());
  EXPECT_THAT(DirectoryEntries(), ::testing::ElementsAre("out.bin"));
  EXPECT_EQ(Contents(dir_ / "out.bin"), std::string("\x01\x02\x03\x04", 4));
}

TEST_F(FileIoTest, WriteFileBytesReplacesByRenameNotInPlace) {
  // A hard link to the old file keeps the old contents only if the new
  // contents went to a new inode that was renamed over the name; writing in
  // place would change both names at once (and expose a partial file).
  const fs::path target = dir_ / "finding.spv";
  const fs::path old_link = dir_ / "old_link.spv";
  ASSERT_TRUE(
      WriteFileBytes(target.string(), std::vector<uint8_t>{'o', 'l', 'd'})
          .ok());
  fs::create_hard_link(target, old_link);
  ASSERT_TRUE(
      WriteFileBytes(target.string(), std::vector<uint8_t>{'n', 'e', 'w', '!'})
          .ok());
  EXPECT_EQ(Contents(target), "new!");
  EXPECT_EQ(Contents(old_link), "old");
  EXPECT_THAT(DirectoryEntries(),
              ::testing::ElementsAre("finding.spv", "old_link.spv"));
}

TEST_F(FileIoTest, ConcurrentWritersOfOnePathNeverMixTheirBytes) {
  // Each writer's file is 1 MiB of its own byte; whichever rename lands
  // last wins, but the result is always one writer's bytes, whole.
  const fs::path target = dir_ / "shared.bin";
  constexpr int kWriters = 8;
  std::vector<std::thread> threads;
  std::vector<absl::Status> results(kWriters);
  for (int w = 0; w < kWriters; ++w) {
    threads.emplace_back([&, w] {
      const std::vector<uint8_t> bytes(1 << 20, static_cast<uint8_t>('a' + w));
      for (int round = 0; round < 4 && results[w].ok(); ++round)
        results[w] = WriteFileBytes(target.string(), bytes);
    });
  }
  for (std::thread& t : threads) t.join();
  for (const absl::Status& s : results) EXPECT_TRUE(s.ok()) << s;
  const std::string contents = Contents(target);
  ASSERT_EQ(contents.size(), size_t{1} << 20);
  EXPECT_EQ(contents.find_first_not_of(contents[0]), std::string::npos)
      << "bytes of several writers in one file";
  EXPECT_THAT(DirectoryEntries(), ::testing::ElementsAre("shared.bin"));
}

TEST_F(FileIoTest, WriteFileBytesIntoMissingDirectoryFailsCleanly) {
  const std::string path = (dir_ / "missing" / "out.bin").string();
  const absl::Status s = WriteFileBytes(path, std::vector<uint8_t>{1});
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr((dir_ / "missing").string()));
  EXPECT_TRUE(DirectoryEntries().empty());
}

TEST_F(FileIoTest, WriteFileBytesOverDirectoryFailsAndRemovesTemporary) {
  // rename() cannot replace a non-empty directory: the temporary must go.
  fs::create_directories(dir_ / "occupied" / "child");
  const absl::Status s =
      WriteFileBytes((dir_ / "occupied").string(), std::vector<uint8_t>{1});
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("cannot rename"));
  EXPECT_THAT(DirectoryEntries(), ::testing::ElementsAre("occupied"));
}

TEST_F(FileIoTest, EmptyFileIsAnEmptyModuleError) {
  const std::string path = (dir_ / "empty.spv").string();
  ASSERT_TRUE(WriteFileBytes(path, {}).ok());
  auto m = ReadModuleFile(path);
  ASSERT_FALSE(m.ok());
  EXPECT_THAT(m.status().message(), HasSubstr("empty"));
  EXPECT_THAT(m.status().message(), HasSubstr(path));
}

// --- Caps and checked writes.

TEST_F(FileIoTest, ReadFileBytesStopsAtItsCapOnAnEndlessDevice) {
  auto bytes = ReadFileBytes("/dev/zero", 1 << 20);
  ASSERT_FALSE(bytes.ok());
  EXPECT_EQ(bytes.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(bytes.status().message(), HasSubstr("/dev/zero"));
  EXPECT_THAT(bytes.status().message(), HasSubstr("1048576-byte limit"));
}

TEST_F(FileIoTest, ReadFileBytesRejectsALargeRegularFileBeforeReadingIt) {
  const std::string path = (dir_ / "big.bin").string();
  {
    std::ofstream out(path, std::ios::binary);
    out.seekp(10 << 20);
    out.put('x');
  }
  auto bytes = ReadFileBytes(path, 4096);
  ASSERT_FALSE(bytes.ok());
  EXPECT_THAT(bytes.status().message(), HasSubstr(path));
  EXPECT_THAT(bytes.status().message(), HasSubstr("4096-byte limit"));
  EXPECT_TRUE(ReadFileBytes(path, 11 << 20).ok());
}

TEST_F(FileIoTest, ReadFileBytesOfAFifoWithoutWriterIsEmptyNotAHang) {
  const std::string path = (dir_ / "fifo").string();
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  auto bytes = ReadFileBytes(path);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  EXPECT_TRUE(bytes->empty());
}

TEST_F(FileIoTest, ReadFileBytesOfADirectoryNamesIt) {
  auto bytes = ReadFileBytes(dir_.string());
  ASSERT_FALSE(bytes.ok());
  EXPECT_THAT(bytes.status().message(), HasSubstr("is a directory"));
}

TEST_F(FileIoTest, AppendToAFullDeviceReportsErrnoAndPath) {
  const absl::Status s = AppendTextFile("/dev/full", "line\n");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(s.message(), HasSubstr("/dev/full"));
  EXPECT_THAT(s.message(), HasSubstr("No space left on device"));
  EXPECT_THAT(s.message(), HasSubstr("free space"));
}

TEST_F(FileIoTest, WriteIntoAMissingDirectoryFailsAndLeavesNothing) {
  const absl::Status s =
      WriteTextFile((dir_ / "missing" / "f.txt").string(), "x");
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("missing"));
  EXPECT_THAT(s.message(), HasSubstr("No such file or directory"));
  EXPECT_TRUE(DirectoryEntries().empty());
}

TEST_F(FileIoTest, WriteOverADirectoryFailsAndRemovesItsTemporary) {
  fs::create_directories(dir_ / "taken" / "child");
  const absl::Status s = WriteTextFile((dir_ / "taken").string(), "x");
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(s.message(), HasSubstr("taken"));
  EXPECT_EQ(DirectoryEntries(), std::vector<std::string>{"taken"});
}

TEST_F(FileIoTest, AppendAddsLines) {
  const std::string path = (dir_ / "log.jsonl").string();
  ASSERT_TRUE(AppendTextFile(path, "a\n").ok());
  ASSERT_TRUE(AppendTextFile(path, "b\n").ok());
  EXPECT_EQ(Contents(path), "a\nb\n");
}

TEST_F(FileIoTest, ReadOutputFileReadsOnlyRegularFiles) {
  const std::string file = (dir_ / "out.spv").string();
  ASSERT_TRUE(WriteTextFile(file, "abcd").ok());
  EXPECT_EQ(ReadOutputFile(file).value_or(""), "abcd");
  // What a hostile consumer leaves where its output belongs.
  fs::create_directory(dir_ / "a_dir");
  ASSERT_EQ(::mkfifo((dir_ / "a_fifo").c_str(), 0600), 0);
  fs::create_symlink("/dev/zero", dir_ / "a_link");
  for (const auto& [name, kind] :
       std::vector<std::pair<std::string, std::string>>{
           {"a_dir", "a directory"},
           {"a_fifo", "a FIFO"},
           {"a_link", "a symbolic link"}}) {
    auto r = ReadOutputFile((dir_ / name).string());
    ASSERT_FALSE(r.ok()) << name;
    EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(r.status().message(), HasSubstr(kind));
    EXPECT_THAT(r.status().message(), HasSubstr("not a regular file"));
  }
  EXPECT_EQ(ReadOutputFile((dir_ / "missing").string()).status().code(),
            absl::StatusCode::kNotFound);
  auto big = ReadOutputFile(file, 3);
  EXPECT_FALSE(big.ok());
}

TEST_F(FileIoTest, ReadFileInsideRefusesLinksLeadingOut) {
  ASSERT_TRUE(WriteTextFile((dir_ / "arg0.bin").string(), "data").ok());
  fs::create_symlink("arg0.bin", dir_ / "arg1.bin");
  fs::create_symlink("/etc/passwd", dir_ / "arg2.bin");
  fs::create_symlink("../outside.bin", dir_ / "arg3.bin");
  EXPECT_EQ(ReadFileInside(dir_.string(), "arg0.bin")->size(), 4u);
  EXPECT_EQ(ReadFileInside(dir_.string(), "arg1.bin")->size(), 4u);
  for (const char* name : {"arg2.bin", "arg3.bin"}) {
    auto r = ReadFileInside(dir_.string(), name);
    ASSERT_FALSE(r.ok()) << name;
    EXPECT_THAT(r.status().message(), HasSubstr(name));
    EXPECT_THAT(r.status().message(), HasSubstr("leads outside"));
  }
}

TEST_F(FileIoTest, CheckTreeStaysInsideNamesTheFirstEscape) {
  fs::create_directories(dir_ / "case");
  ASSERT_TRUE(WriteTextFile((dir_ / "case" / "module.spv").string(), "x").ok());
  fs::create_symlink("module.spv", dir_ / "case" / "alias.spv");
  EXPECT_TRUE(CheckTreeStaysInside(dir_.string()).ok());
  fs::create_symlink("/etc/passwd", dir_ / "case" / "arg0.bin");
  auto s = CheckTreeStaysInside(dir_.string());
  EXPECT_THAT(s.message(), HasSubstr("arg0.bin"));
  EXPECT_THAT(s.message(), HasSubstr("symbolic link"));
  fs::remove(dir_ / "case" / "arg0.bin");
  ASSERT_EQ(::mkfifo((dir_ / "case" / "pipe").c_str(), 0600), 0);
  s = CheckTreeStaysInside(dir_.string());
  EXPECT_THAT(s.message(), HasSubstr("pipe"));
  EXPECT_THAT(s.message(), HasSubstr("FIFO"));
}

}  // namespace
}  // namespace l0spv::spirv
