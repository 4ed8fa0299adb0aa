// spirv/text_bytes.h — bytes from outside (a consumer's messages, its
// printf, its log) made safe for JSON and for a terminal, losing nothing.
//
// Contract:
// - `IsValidUtf8` is true exactly for well-formed UTF-8 (no overlong forms,
//   no surrogates, nothing above U+10FFFF): what nlohmann::json accepts.
// - `EscapeInvalidUtf8` keeps every well-formed UTF-8 sequence as it is and
//   writes every other byte as the four characters `\xNN` (lower-case hex):
//   the result is valid UTF-8 and shows each byte, readably. Valid input
//   comes back unchanged.
// - `DumpJson` is nlohmann's dump(indent) that never throws: a document
//   holding a string that is not UTF-8 is dumped with those strings passed
//   through EscapeInvalidUtf8 (keys too). Every JSON text the project writes
//   goes through it, so no consumer output can abort a command.
// - `ShellQuote` makes one word of a POSIX shell command: words of only
//   [A-Za-z0-9_@%+=:,./-] as they are, anything else in single quotes (a
//   quote inside as '\\''). Every command written for a user to run (a
//   finding's reproduce line, a reduction's check script) quotes each
//   word with it: paths with spaces, quotes or $(...) run as written.
#pragma once

#include <string>
#include <string_view>

#include "nlohmann/json.hpp"

namespace l0spv::spirv {

bool IsValidUtf8(std::string_view bytes);
std::string EscapeInvalidUtf8(std::string_view bytes);
std::string DumpJson(const nlohmann::json& j, int indent = -1);
std::string ShellQuote(std::string_view word);

}  // namespace l0spv::spirv
