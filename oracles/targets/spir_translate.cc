#include "oracles/targets/spir_translate.h"

#include <fstream>
#include <iterator>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "oracles/targets/scratch_dir.h"
#include "spirv/file_io.h"

namespace l0spv::oracles {
namespace {

// The first line of the translator's stderr that says something, for
// one-line messages.
std::string FirstLine(const std::string& text) {
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    if (end > start) return text.substr(start, end - start);
    start = end + 1;
  }
  return "";
}

}  // namespace

absl::StatusOr<SpirTranslation> TranslateToSpir(
    const std::vector<uint32_t>& module_words,
    const SpirTranslateOptions& options) {
  std::string translator = options.translator;
  if (!translator.empty() && !FindProgram(translator)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "SPIR translator ", translator, " not found or not executable"));
  }
  if (translator.empty()) {
    for (const char* name : {"llvm-spirv-14", "llvm-spirv"}) {
      if (auto path = FindProgram(name)) {
        translator = *path;
        break;
      }
    }
    if (translator.empty()) {
      return absl::FailedPreconditionError(
          "SPIR path needs SPIRV-LLVM-Translator, but neither llvm-spirv-14 "
          "nor llvm-spirv is in PATH (apt-get install llvm-spirv-14)");
    }
  }
  auto dir = ScratchDir::Make(options.scratch_dir, "l0spv-spir-");
  if (!dir.ok()) return dir.status();
  const std::string spv = dir->path() + "/module.spv";
  const std::string bc = dir->path() + "/module.bc";
  if (auto s = WriteModule(spv, module_words); !s.ok()) return s;
  auto child = RunCommand({translator, "-r", spv, "-o", bc}, options.limits,
                          dir->path());
  if (!child.ok()) return child.status();

  SpirTranslation result;
  result.log = child->stderr_text;
  const std::string who = absl::StrCat(translator, " -r");
  switch (child->ending) {
    case ChildResult::Ending::kTimedOut:
      result.status = ExecutionStatus::kTimedOut;
      result.message = absl::StrCat(who, " ", child->Describe());
      return result;
    case ChildResult::Ending::kSignaled:
      result.status = ExecutionStatus::kCrashed;
      result.message = absl::StrCat(who, " crashed: ", child->Describe(), ": ",
                                    FirstLine(child->stderr_text));
      return result;
    case ChildResult::Ending::kExited:
      break;
  }
  if (child->exit_code != 0) {
    result.status = ExecutionStatus::kBuildFailed;
    result.message =
        absl::StrCat(who, " rejected the module (", child->Describe(),
                     "): ", FirstLine(child->stderr_text));
    return result;
  }
  auto bitcode = spirv::ReadOutputFile(bc);
  if (!bitcode.ok()) {
    result.status = ExecutionStatus::kBuildFailed;
    result.message = absl::StrCat(who, " exited 0 but wrote no usable output: ",
                                  bitcode.status().message());
    return result;
  }
  result.bitcode.assign(bitcode->begin(), bitcode->end());
  return result;
}

}  // namespace l0spv::oracles
