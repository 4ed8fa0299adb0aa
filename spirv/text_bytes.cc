#include "spirv/text_bytes.h"

#include <cstdint>

#include "absl/strings/str_cat.h"

namespace l0spv::spirv {
namespace {

// Length of the well-formed UTF-8 sequence at `s[i]`, or 0 when the byte
// there does not start one (RFC 3629's table of well-formed sequences).
size_t SequenceLength(std::string_view s, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<uint8_t>(s[i + k]); };
  const uint8_t b0 = byte(0);
  if (b0 < 0x80) return 1;
  size_t n = 0;
  uint8_t lo = 0x80, hi = 0xBF;  // bounds of the second byte
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    n = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    n = 3;
    if (b0 == 0xE0) lo = 0xA0;  // no overlong forms
    if (b0 == 0xED) hi = 0x9F;  // no surrogates
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    n = 4;
    if (b0 == 0xF0) lo = 0x90;  // no overlong forms
    if (b0 == 0xF4) hi = 0x8F;  // nothing above U+10FFFF
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  if (byte(1) < lo || byte(1) > hi) return 0;
  for (size_t k = 2; k < n; ++k)
    if (byte(k) < 0x80 || byte(k) > 0xBF) return 0;
  return n;
}

void EscapeStrings(nlohmann::json& j) {
  if (j.is_string()) {
    std::string& s = j.get_ref<std::string&>();
    if (!IsValidUtf8(s)) s = EscapeInvalidUtf8(s);
  } else if (j.is_array()) {
    for (auto& e : j) EscapeStrings(e);
  } else if (j.is_object()) {
    nlohmann::json fixed = nlohmann::json::object();
    for (auto it = j.begin(); it != j.end(); ++it) {
      EscapeStrings(it.value());
      fixed[EscapeInvalidUtf8(it.key())] = std::move(it.value());
    }
    j = std::move(fixed);
  }
}

}  // namespace

bool IsValidUtf8(std::string_view bytes) {
  for (size_t i = 0; i < bytes.size();) {
    const size_t n = SequenceLength(bytes, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string EscapeInvalidUtf8(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (size_t i = 0; i < bytes.size();) {
    const size_t n = SequenceLength(bytes, i);
    if (n == 0) {
      absl::StrAppend(
          &out, "\\x",
          absl::Hex(static_cast<uint8_t>(bytes[i]), absl::kZeroPad2));
      ++i;
    } else {
      out.append(bytes.substr(i, n));
      i += n;
    }
  }
  return out;
}

std::string DumpJson(const nlohmann::json& j, int indent) {
  try {
    return j.dump(indent);
  } catch (const nlohmann::json::type_error&) {
    // Only a string that is not UTF-8 makes dump() throw.
    nlohmann::json copy = j;
    EscapeStrings(copy);
    return copy.dump(indent, ' ', false,
                     nlohmann::json::error_handler_t::replace);
  }
}

std::string ShellQuote(std::string_view word) {
  const bool plain = !word.empty() &&
                     word.find_first_not_of(
                         "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                         "0123456789_@%+=:,./-") == std::string_view::npos;
  if (plain) return std::string(word);
  std::string out = "'";
  for (char c : word) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

}  // namespace l0spv::spirv
