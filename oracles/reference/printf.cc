// OpenCL.std printf: the C99 format grammar plus OpenCL's vector
// specifiers (%v4hld ...), written to Execution::printf_output.
#include <cstdio>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "oracles/reference/opencl_std.h"
#include "oracles/reference/opencl_std_lanes.h"

namespace l0spv::oracles::reference {
namespace {

// Output beyond this many bytes stops the run (a runaway printf loop must
// not exhaust host memory).
constexpr size_t kMaxPrintfBytes = size_t{16} << 20;
constexpr int kMaxWidth = 4096;

struct Spec {
  std::string flags;
  int width = -1;
  int precision = -1;
  int vector = 0;      // components, 0 = scalar
  std::string length;  // "", hh, h, hl, l
  char conversion = 0;
};

// Formats with the host printf; `spec` carries flags/width/precision and a
// host length modifier suited to the value passed.
template <typename T>
void Append(std::string* out, const Spec& s, const char* host_length,
            char conversion, T value) {
  std::string fmt = "%" + s.flags;
  if (s.width >= 0) fmt += std::to_string(s.width);
  if (s.precision >= 0) fmt += "." + std::to_string(s.precision);
  fmt += host_length;
  fmt += conversion;
  const int n = std::snprintf(nullptr, 0, fmt.c_str(), value);
  if (n <= 0) return;
  std::string buf(static_cast<size_t>(n) + 1, '\0');
  std::snprintf(buf.data(), buf.size(), fmt.c_str(), value);
  buf.resize(static_cast<size_t>(n));
  *out += buf;
}

}  // namespace

bool OpenClPrintfHandler(ExtContext& c, const ExtCall& call) {
  uint64_t fmt_ptr;
  std::memcpy(&fmt_ptr, c.regs + call.args[0].slot, 8);
  std::string fmt;
  if (!c.ReadCString(fmt_ptr, &fmt)) return false;
  std::string out;
  size_t next_arg = 1;
  auto fail = [&](absl::string_view why) {
    return c.Fail(ExecutionStatus::kUbDetected, "invalid printf call",
                  absl::StrCat(why, " in format \"", fmt, "\""));
  };
  for (size_t i = 0; i < fmt.size(); ++i) {
    if (fmt[i] != '%') {
      out += fmt[i];
      continue;
    }
    if (i + 1 < fmt.size() && fmt[i + 1] == '%') {
      out += '%';
      ++i;
      continue;
    }
    Spec s;
    size_t j = i + 1;
    while (j < fmt.size() &&
           absl::string_view("-+ #0").find(fmt[j]) != absl::string_view::npos)
      s.flags += fmt[j++];
    auto number = [&](int* v) {
      if (j < fmt.size() && fmt[j] == '*') {
        if (next_arg >= call.args.size()) return false;
        *v = static_cast<int>(lanes::Signed(c, call.args[next_arg++], 0));
        ++j;
        return true;
      }
      *v = 0;
      bool any = false;
      while (j < fmt.size() && fmt[j] >= '0' && fmt[j] <= '9') {
        *v = std::min(*v * 10 + (fmt[j++] - '0'), kMaxWidth + 1);
        any = true;
      }
      if (!any) *v = -1;
      return true;
    };
    if (!number(&s.width)) return fail("missing argument for '*'");
    if (s.width < -1) {
      s.flags += '-';
      s.width = -s.width;
    }
    if (j < fmt.size() && fmt[j] == '.') {
      ++j;
      if (!number(&s.precision)) return fail("missing argument for '*'");
      if (s.precision < 0) s.precision = 0;
    }
    if (s.width > kMaxWidth || s.precision > kMaxWidth)
      return c.Fail(ExecutionStatus::kUnsupported, "unsupported printf",
                    "field width or precision over 4096");
    if (j < fmt.size() && fmt[j] == 'v') {
      ++j;
      int v = 0;
      while (j < fmt.size() && fmt[j] >= '0' && fmt[j] <= '9')
        v = std::min(v * 10 + (fmt[j++] - '0'), 99);
      if (v != 2 && v != 3 && v != 4 && v != 8 && v != 16)
        return fail("bad vector specifier");
      s.vector = v;
    }
    if (fmt.compare(j, 2, "hh") == 0) {
      s.length = "hh";
      j += 2;
    } else if (fmt.compare(j, 2, "hl") == 0) {
      s.length = "hl";
      j += 2;
    } else if (j < fmt.size() && (fmt[j] == 'h' || fmt[j] == 'l')) {
      s.length = fmt[j++];
    }
    if (j >= fmt.size()) return fail("incomplete conversion");
    s.conversion = fmt[j];
    i = j;
    if (s.conversion == 'n') return fail("%n");
    if (absl::string_view("diouxXcsfFeEgGaAp").find(s.conversion) ==
        absl::string_view::npos)
      return fail(absl::StrCat("unknown conversion '",
                               std::string(1, s.conversion), "'"));
    if (next_arg >= call.args.size()) return fail("too few arguments");
    const ExtArg& arg = call.args[next_arg++];
    const int count = s.vector ? s.vector : 1;
    if (s.vector && arg.lanes != s.vector)
      return fail("vector argument does not match the vector specifier");
    if (arg.slot == kNoSlot) return fail("literal argument");
    for (int l = 0; l < count; ++l) {
      if (l) out += ',';
      switch (s.conversion) {
        case 'd':
        case 'i': {
          int64_t v = lanes::Signed(c, arg, l);
          if (s.length == "hh")
            v = static_cast<int8_t>(v);
          else if (s.length == "h")
            v = static_cast<int16_t>(v);
          else if (s.length != "l")
            v = static_cast<int32_t>(v);
          Append(&out, s, "ll", s.conversion, static_cast<long long>(v));
          break;
        }
        case 'o':
        case 'u':
        case 'x':
        case 'X': {
          uint64_t v = lanes::Raw(c, arg, l);
          if (s.length == "hh")
            v = static_cast<uint8_t>(v);
          else if (s.length == "h")
            v = static_cast<uint16_t>(v);
          else if (s.length != "l")
            v = static_cast<uint32_t>(v);
          Append(&out, s, "ll", s.conversion,
                 static_cast<unsigned long long>(v));
          break;
        }
        case 'c':
          Append(&out, s, "", 'c',
                 static_cast<int>(
                     static_cast<unsigned char>(lanes::Raw(c, arg, l))));
          break;
        case 's': {
          uint64_t p;
          std::memcpy(&p, c.regs + arg.slot, 8);
          std::string str;
          if (!c.ReadCString(p, &str)) return false;
          Append(&out, s, "", 's', str.c_str());
          break;
        }
        case 'p': {
          uint64_t p;
          std::memcpy(&p, c.regs + arg.slot, 8);
          Spec hex = s;
          hex.flags += '#';
          Append(&out, hex, "ll", 'x', static_cast<unsigned long long>(p));
          break;
        }
        default: {
          if (arg.kind < kF16 || arg.kind > kF64)
            return fail("floating-point conversion of a non-float argument");
          const double v = static_cast<double>(lanes::Float(c, arg, l));
          Append(&out, s, "", s.conversion, v);
          break;
        }
      }
    }
  }
  if (c.printf_output->size() + out.size() > kMaxPrintfBytes)
    return c.Fail(ExecutionStatus::kUnsupported, "printf output limit",
                  "more than 16 MiB of printf output");
  *c.printf_output += out;
  if (call.result != kNoSlot) lanes::StoreRaw(c, call.result, kI32, 0, 0);
  return true;
}

}  // namespace l0spv::oracles::reference
