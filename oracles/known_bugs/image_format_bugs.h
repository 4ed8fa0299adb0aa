// oracles/known_bugs/image_format_bugs.h — image formats that meet a filed
// consumer bug.
//
// Contract: KnownBugOfImageFormat says whether an image of this channel order
// and type (spirv/image_format.h values) meets a registry entry of one of the
// consumers `avoid` (a ConsumerBit mask), and which one; the first such entry
// when several apply, in a fixed order. It is the one list of format gates:
// the generator replaces such formats when it draws one (images.cc
// RandomFormat) and the reducer never simplifies an image into one
// (reducers/shrink_images.cc), so a reduction cannot slip from the bug it
// reduces into a known one. Limitations (a consumer that answers
// `unsupported`, such as PoCL's missing RG orders) are not listed: such
// cases never become findings.
#pragma once

#include <cstdint>
#include <optional>

#include "oracles/known_bugs/registry.h"

namespace l0spv::oracles {

std::optional<KnownBugId> KnownBugOfImageFormat(uint32_t order, uint32_t type,
                                                uint32_t avoid);

}  // namespace l0spv::oracles
