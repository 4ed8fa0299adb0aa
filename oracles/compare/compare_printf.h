// oracles/compare/compare_printf.h — printf output compared as a multiset
// of canonical lines (internal to oracles/compare; CompareExecutions calls
// it).
//
// Contract:
//  - A line is the text up to and including '\n' (a last line without one
//    is kept as is, so "x" and "x\n" differ). OpenCL does not order the
//    output of different work-items, so two outputs are equal when they
//    hold the same lines the same number of times, in any order. Generated
//    kernels start each line with the work-item's id and the call's number
//    (generators/kernel/printf.h), which makes this a per-work-item check.
//  - Within a line, what C99 leaves to the implementation is canonicalised
//    first: a hex float (%a/%A: "0x1.8p+0", "0xc.0p-3", "0x3p-1" are the
//    same value) is rewritten as the host's %a of its value, keeping its
//    case and an explicit '+'; a NaN ("nan", "-nan", "nan(0x7fc)", any
//    case) becomes "nan"/"NAN" (C99 7.19.6.1: the style is
//    implementation-defined).
//  - The explanation names the first line (in sorted order) whose counts
//    differ, with both counts and the line totals; `signature_kind` is
//    "printf".
#pragma once

#include <string>
#include <string_view>

#include "oracles/compare/compare.h"

namespace l0spv::oracles {

std::string CanonicalPrintfLine(std::string_view line);

CompareResult ComparePrintf(const std::string& expected,
                            const std::string& actual);

}  // namespace l0spv::oracles
