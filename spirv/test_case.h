// spirv/test_case.h — the TestCase shape every room shares (DESIGN.md):
// a module, its entry point, an ND-range and the kernel arguments.
//
// Contract: a TestCase is a plain value. On disk it is a directory holding
// `case.json`, `module.spv` and one `argN.bin` per buffer or image argument
// (N = the argument's position; an image's file holds its texels in the
// layout of spirv/image_format.h). `ReadTestCase` validates everything it reads
// and reports the file and field at fault; `WriteTestCase` writes every file
// atomically (temp + rename), case.json last, so a reader never sees a
// case.json whose files are missing.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "spirv/image_format.h"

namespace l0spv::spirv {

struct NdRange {
  uint32_t dims = 1;  // 1..3
  std::array<uint64_t, 3> global{1, 1, 1};
  std::optional<std::array<uint64_t, 3>>
      local;  // nullopt: implementation picks
  std::array<uint64_t, 3> offset{0, 0, 0};
};

struct KernelArg {
  enum class Kind { kBuffer, kScalar, kLocal, kImage, kSampler };
  Kind kind = Kind::kBuffer;
  // kBuffer: initial contents; kScalar: the value's bytes (little-endian; a
  // by-value struct is a scalar of its OpenCL-layout bytes); kImage: the
  // initial texels (ImageBytes(image) bytes).
  std::vector<uint8_t> bytes;
  uint64_t local_bytes = 0;  // kLocal: size of the __local allocation
  bool is_result = false;    // kBuffer/kImage: compared between targets
  ImageDesc image;           // kImage
  SamplerDesc sampler;       // kSampler
  std::string type;          // optional, informational ("u32", "struct")
};

// How far a target's float result may be from the reference's (the generator
// knows it per output slot; the comparison applies it). Elements are grouped
// in records of `record` elements (one per work-item); `fields` lists the
// positions inside a record this entry covers (record 0 or no fields: every
// element of the buffer).
struct ResultTolerance {
  uint32_t arg = 0;          // a result buffer argument
  std::string type = "f32";  // "f16", "f32" or "f64"
  double ulp = 0;
  double relative = 0;
  double absolute = 0;
  uint64_t record = 0;
  std::vector<uint64_t> fields;
  bool skip = false;   // implementation-defined results: not compared
  std::string reason;  // why this tolerance (shown in explanations)
};

struct TestCase {
  std::vector<uint32_t> module_words;
  // Further modules linked with module_words before the launch (Level
  // Zero's zeModuleDynamicLink): they export what it imports. On disk
  // module-1.spv, module-2.spv, ..., listed in case.json's
  // "linked_modules". The entry point is module_words'.
  std::vector<std::vector<uint32_t>> linked_modules;
  std::string entry_point;
  NdRange nd_range;
  std::vector<KernelArg> args;
  std::string profile = "full";
  // Tolerances of float results; empty = every result compared bit for bit.
  std::vector<ResultTolerance> tolerances;
  // The transformation log that produced this case, when it was transformed.
  std::optional<nlohmann::json> transformation_log;
};

inline constexpr char kTestCaseFormat[] = "l0spv-case/1";
// At most this many linked modules per case.
inline constexpr size_t kMaxLinkedModules = 15;
// The file name of linked module i (0-based): module-<i+1>.spv.
std::string LinkedModuleFile(size_t i);

absl::StatusOr<TestCase> ReadTestCase(const std::string& dir);
// ReadTestCase from case.json's parsed contents and a reader of the case's
// other files by name (module.spv, arg0.bin, ...): the directory's files,
// or files held in memory. `dir` names the case in messages.
using CaseFileReader = std::function<absl::StatusOr<std::vector<uint8_t>>(
    const std::string& name, uint64_t max_bytes)>;
absl::StatusOr<TestCase> ReadTestCaseFrom(const nlohmann::json& case_json,
                                          const std::string& dir,
                                          const CaseFileReader& read);
absl::Status WriteTestCase(const TestCase& test_case, const std::string& dir);

// A case as one byte string (CBOR: case.json's contents and the files
// beside it) and back, for a worker process; TestCaseFromBytes checks what
// ReadTestCase checks, `who` naming the source in messages.
std::string TestCaseToBytes(const TestCase& test_case);
absl::StatusOr<TestCase> TestCaseFromBytes(const std::string& bytes,
                                           const std::string& who);

class JsonReader;
class JsonField;
// The optional "tolerances" array (case.json and corpus sidecars), read into
// tc.tolerances once tc.args is known; problems go to `reader`.
void ReadResultTolerances(JsonReader& reader, JsonField list, TestCase& tc);

// case.json alone (the module and buffers are separate files).
nlohmann::json TestCaseToJson(const TestCase& test_case);

// Total work-items of the ND-range.
uint64_t GlobalWorkItems(const NdRange& range);
// Checks dims, sizes (non-zero, local ≤ global...), for messages naming the
// field; used by ReadTestCase and by anyone building a case by hand.
absl::Status ValidateNdRange(const NdRange& range);

}  // namespace l0spv::spirv
