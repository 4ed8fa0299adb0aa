#include "oracles/known_bugs/image_format_bugs.h"

#include "spirv/image_format.h"

namespace l0spv::oracles {

std::optional<KnownBugId> KnownBugOfImageFormat(uint32_t order, uint32_t type,
                                                uint32_t avoid) {
  namespace co = spirv::channel_order;
  namespace ct = spirv::channel_type;
  const auto avoided = [avoid](KnownBugId id) {
    return (avoid & ConsumersOf(id)) != 0;
  };
  // llvm-spirv 14 reads a SPIR-V 1.2 integer image access as
  // read_imagei/write_imagei whatever the channel type: undefined on an
  // unsigned image in OpenCL C (Oclgrind stops on it).
  if ((type == ct::kUnsignedInt8 || type == ct::kUnsignedInt16 ||
       type == ct::kUnsignedInt32) &&
      avoided(KnownBugId::kLlvmSpirvImageUnsigned))
    return KnownBugId::kLlvmSpirvImageUnsigned;
  // PoCL 3.1 fills a single-channel image's alpha with 0 instead of 1, and
  // reads R HalfFloat texels as 234.0.
  if (order == co::kR && avoided(KnownBugId::kPoclImageRAlpha))
    return KnownBugId::kPoclImageRAlpha;
  if (order == co::kR && type == ct::kHalfFloat &&
      avoided(KnownBugId::kPoclImageRHalf))
    return KnownBugId::kPoclImageRHalf;
  return std::nullopt;
}

}  // namespace l0spv::oracles
