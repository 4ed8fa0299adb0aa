#include "generators/kernel/printf.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "generators/kernel/expressions.h"
#include "generators/kernel/ext_inst.h"
#include "spirv/numeric_bits.h"
#include "spirv/unified1/OpenCL.std.h"

namespace l0spv::generators::kernel {

using spv::Op;

namespace {

// Literal text and %s strings: printable, no '%' (a conversion) and no
// '\n' (lines are the unit of comparison).
constexpr char kText[] = "abcdefghijklmnopqrstuvwxyz0123456789 =,;:_[]()";

std::string RandomText(Rng& rng, uint32_t max_length) {
  std::string s;
  const uint32_t n = rng.Below(max_length + 1);
  for (uint32_t i = 0; i < n; ++i) s += kText[rng.Below(sizeof(kText) - 1)];
  return s;
}

// A pointer to the first character of a __constant (UniformConstant)
// NUL-terminated copy of `text`, valid in the current function.
uint32_t ConstantString(GenContext& ctx, const std::string& text) {
  TypeCatalog& types = ctx.types;
  const uint32_t u8 = types.Id(IntT(8));
  std::vector<uint32_t> chars;
  for (char ch : text)
    chars.push_back(types.Splat(IntT(8), static_cast<unsigned char>(ch)));
  chars.push_back(types.Splat(IntT(8), 0));
  const uint32_t array = types.Array(u8, static_cast<uint32_t>(chars.size()));
  const uint32_t init = ctx.builder.CompositeConstant(array, chars);
  const uint32_t id = ctx.builder.TakeNextId();
  ctx.module.types_values.emplace_back(
      static_cast<uint32_t>(Op::OpVariable),
      types.Pointer(spv::StorageClass::UniformConstant, array), id,
      std::vector<spirv::Operand>{
          spirv::EnumOperand(
              spirv::OperandKind::kStorageClass,
              static_cast<uint32_t>(spv::StorageClass::UniformConstant)),
          Id(init)});
  ctx.Decorate(id, spv::Decoration::Constant);
  // Both access-chain forms and index widths producers emit.
  const uint32_t zero = ctx.rng.Percent(50) ? types.U32(0) : types.U64(0);
  const Op chain =
      ctx.rng.Percent(50) ? Op::OpInBoundsAccessChain : Op::OpAccessChain;
  return ctx.fn->Op(
      chain, types.Pointer(spv::StorageClass::UniformConstant, u8), {id, zero});
}

// One printf call under construction: the format and its arguments.
struct Call {
  std::string format;
  std::vector<uint32_t> args;
};

// Flags, field width and precision for one conversion. `signed_conv`
// allows '+' and ' ', `alternate` '#'; `min_precision` < 0 forbids a
// precision, `max_precision` bounds it.
std::string Modifiers(Rng& rng, bool signed_conv, bool alternate, bool zero_pad,
                      int min_precision, int max_precision, bool width = true) {
  std::string m;
  if (rng.Percent(40)) {
    if (rng.Percent(40)) m += '-';
    if (signed_conv && rng.Percent(40)) m += rng.Percent(50) ? '+' : ' ';
    if (alternate && rng.Percent(40)) m += '#';
    if (zero_pad && rng.Percent(40)) m += '0';
  }
  if (width && rng.Percent(40)) m += std::to_string(rng.Range(1, 14));
  if (min_precision >= 0 && rng.Percent(35)) {
    m += '.';
    m += std::to_string(rng.Range(static_cast<uint32_t>(min_precision),
                                  static_cast<uint32_t>(max_precision)));
  }
  return m;
}

// An integer conversion character and its flags/precision.
std::string IntConversion(GenContext& ctx, bool allow_c, char* conv) {
  Rng& rng = ctx.rng;
  static constexpr char kConv[] = "diuxXoc";
  *conv = kConv[rng.Below(allow_c ? 7 : 6)];
  if (*conv == 'c') return Modifiers(rng, false, false, false, -1, 0);
  const bool is_signed = *conv == 'd' || *conv == 'i';
  const bool alternate = *conv == 'x' || *conv == 'X' || *conv == 'o';
  std::string m = Modifiers(rng, is_signed, alternate, true, 0, 8);
  // C ignores the 0 flag when there is a precision; PoCL 3.1 pads a 0 of
  // precision 0 with zeros (known-consumer-bugs/
  // pocl_printf_zero_precision_zero_pad): drop the flag there.
  if (m.find('.') != std::string::npos &&
      !ctx.BugsAllowed(KnownBugId::kPoclPrintfZeroPrecisionZeroPad)) {
    const size_t flags = m.find_first_not_of("-+ #0");
    const size_t zero = m.find('0');
    if (zero < flags) m.erase(zero, 1);
  }
  return m;
}

// Lane-wise `value` masked to 13 bits (11 for half), re-centred on 0,
// converted to `type` and scaled by 1/8: k/8 with |k| < 4096 (1024 for
// half), whose decimal text is exact with 3 fraction digits and at most 7
// significant digits.
uint32_t TameFloat(GenContext& ctx, ValueType type) {
  FunctionEmitter& fn = *ctx.fn;
  const ValueType it = IntT(32, type.lanes);
  const uint32_t it_id = ctx.types.Id(it);
  const bool half = type.width == 16;
  const uint32_t k = fn.Op(Op::OpISub, it_id,
                           {fn.Op(Op::OpBitwiseAnd, it_id,
                                  {DrawOperand(ctx, it),
                                   ctx.types.Splat(it, half ? 0x7FF : 0x1FFF)}),
                            ctx.types.Splat(it, half ? 1024 : 4096)});
  const uint32_t f = fn.Op(Op::OpConvertSToF, ctx.types.Id(type), {k});
  const uint32_t eighth =
      ctx.types.Splat(type, spirv::EncodeFloat(0.125, type.width));
  return fn.Op(Op::OpFMul, ctx.types.Id(type), {f, eighth});
}

// A float conversion and its modifiers; *tame tells whether the value must
// be tame (every decimal conversion) or may be any finite value (a/A: no
// width or precision, whose padding and rounding depend on normalisation).
std::string FloatConversion(Rng& rng, char* conv, bool* tame) {
  static constexpr char kConv[] = "fFeEgGaA";
  *conv = kConv[rng.Below(8)];
  *tame = *conv != 'a' && *conv != 'A';
  if (!*tame) return Modifiers(rng, true, true, false, -1, 0, false);
  // Precision enough for the tame values' digits: 3 fraction digits (f),
  // 7 significant digits (e: 6 after the point, g: 7).
  const int low = *conv == 'f' || *conv == 'F'     ? 3
                  : (*conv == 'g' || *conv == 'G') ? 7
                                                   : 6;
  return Modifiers(rng, true, true, true, low, low + 4);
}

// The float value for a conversion: tame, or finite of a width the case
// has, widened (exactly) to `type`.
uint32_t FloatArgument(GenContext& ctx, ValueType type, bool tame) {
  if (tame) return TameFloat(ctx, type);
  std::vector<uint8_t> widths;
  if (ctx.features.fp16 && type.width >= 16) widths.push_back(16);
  if (ctx.features.fp32 && type.width >= 32) widths.push_back(32);
  // PoCL 3.1 prints scalar doubles as floats (known-consumer-bugs/
  // pocl_printf_double_as_float): only values exact as floats there.
  if (ctx.features.fp64 && type.width >= 64 &&
      (type.IsVector() ||
       ctx.BugsAllowed(KnownBugId::kPoclPrintfDoubleAsFloat)))
    widths.push_back(64);
  if (widths.empty()) return TameFloat(ctx, type);
  const uint8_t w = ctx.rng.Pick<uint8_t>(widths);
  const ValueType wt = type.WithWidth(w);
  const uint32_t x = Finite(ctx, DrawOperand(ctx, wt), wt);
  if (w == type.width) return x;
  return ctx.fn->Op(Op::OpFConvert, ctx.types.Id(type), {x});
}

void AddScalarInt(GenContext& ctx, Call& call) {
  Rng& rng = ctx.rng;
  char conv;
  const std::string mods = IntConversion(ctx, true, &conv);
  // Oclgrind 21.10 ignores h and hh on scalars (known-consumer-bugs/
  // oclgrind_printf_length_modifiers).
  static constexpr const char* kLength[] = {"", "l", "hh", "h"};
  const uint32_t lengths =
      ctx.BugsAllowed(KnownBugId::kOclgrindPrintfLengthModifiers) ? 4 : 2;
  const std::string length = conv == 'c' ? "" : kLength[rng.Below(lengths)];
  uint32_t value = DrawOperand(ctx, IntT(length == "l" ? 64 : 32));
  if (conv == 'c') {
    // A printable character: '0' + (v & 63).
    const uint32_t u32 = ctx.types.Id(IntT(32));
    value = ctx.fn->Op(
        Op::OpIAdd, u32,
        {ctx.fn->Op(Op::OpBitwiseAnd, u32, {value, ctx.types.U32(63)}),
         ctx.types.U32('0')});
  }
  call.format += "%" + mods + length + conv;
  call.args.push_back(value);
}

bool AddScalarFloat(GenContext& ctx, Call& call) {
  const uint8_t width = ctx.features.printf_float_width;
  if (width == 0) return false;
  char conv;
  bool tame;
  const std::string mods = FloatConversion(ctx.rng, &conv, &tame);
  call.format += "%" + mods + conv;
  call.args.push_back(FloatArgument(ctx, FloatT(width), tame));
  return true;
}

bool AddVector(GenContext& ctx, Call& call) {
  const Features& f = ctx.features;
  uint8_t lanes = 1;
  for (int i = 0; i < 4 && lanes == 1; ++i) lanes = RandomLanes(ctx);
  if (lanes == 1) return false;
  Rng& rng = ctx.rng;
  // PoCL 3.1 prints char and short vectors as garbage
  // (known-consumer-bugs/pocl_printf_char_vectors) and misreads a vector
  // after a 512-bit one (pocl_printf_wide_vectors).
  const bool narrow_ints = ctx.BugsAllowed(KnownBugId::kPoclPrintfCharVectors);
  const bool wide = ctx.BugsAllowed(KnownBugId::kPoclPrintfWideVectors);
  // The element types a vector conversion can name here.
  struct Element {
    ValueType type;
    const char* length;
  };
  std::vector<Element> elements{{IntT(32), "hl"}, {IntT(64), "l"}};
  if (f.int8 && narrow_ints) elements.push_back({IntT(8), "hh"});
  if (f.int16 && narrow_ints) elements.push_back({IntT(16), "h"});
  if (f.fp16) elements.push_back({FloatT(16), "h"});
  if (f.fp32) elements.push_back({FloatT(32), "hl"});
  if (f.fp64) elements.push_back({FloatT(64), "l"});
  const Element e = elements[rng.Below(static_cast<uint32_t>(elements.size()))];
  while (!wide && lanes > 2 && lanes * e.type.width >= 512) lanes /= 2;
  // Intel's CPU runtime 2026.2 reads the argument after a 3-component
  // vector of 32/64-bit elements from the wrong place
  // (known-consumer-bugs/intel_cpu_printf_vector3_args): a 4 instead.
  if (lanes == 3 && e.type.width >= 32 &&
      !ctx.BugsAllowed(KnownBugId::kIntelCpuPrintfVector3Args))
    lanes = 4;
  const ValueType type = e.type.WithLanes(lanes);
  char conv;
  std::string mods;
  uint32_t value;
  if (type.IsInt()) {
    mods = IntConversion(ctx, false, &conv);
    value = DrawOperand(ctx, type);
  } else {
    bool tame;
    mods = FloatConversion(rng, &conv, &tame);
    value = FloatArgument(ctx, type, tame);
  }
  call.format +=
      absl::StrCat("%", mods, "v", lanes, e.length, std::string(1, conv));
  call.args.push_back(value);
  return true;
}

void AddString(GenContext& ctx, Call& call) {
  // PoCL 3.1 prints only padding for a width with a precision
  // (known-consumer-bugs/pocl_printf_string_width_precision).
  const bool both =
      ctx.BugsAllowed(KnownBugId::kPoclPrintfStringWidthPrecision);
  const bool width = both || ctx.rng.Percent(50);
  call.format += "%" +
                 Modifiers(ctx.rng, false, false, false,
                           width && !both ? -1 : 0, 12, width) +
                 "s";
  call.args.push_back(ConstantString(ctx, RandomText(ctx.rng, 12)));
}

}  // namespace

bool GenPrintf(GenContext& ctx) {
  if (ctx.kernel == nullptr || ctx.printf_calls >= ctx.features.printf_calls ||
      ctx.loop_weight > 4)
    return false;
  Rng& rng = ctx.rng;
  Call call;
  // Which call printed the line, and for which work-item.
  call.format = absl::StrCat("p", ctx.printf_calls++, " %lu:");
  call.args.push_back(ctx.kernel->linear_id);
  const uint32_t items = rng.Range(1, 4);
  for (uint32_t i = 0; i < items; ++i) {
    call.format += RandomText(rng, 3);
    if (call.format.back() != ' ' && call.format.back() != ':')
      call.format += ' ';
    switch (rng.Below(10)) {
      case 0:
      case 1:
      case 2:
        AddScalarInt(ctx, call);
        break;
      case 3:
      case 4:
        if (!AddScalarFloat(ctx, call)) AddScalarInt(ctx, call);
        break;
      case 5:
      case 6:
      case 7:
        if (!AddVector(ctx, call)) AddScalarInt(ctx, call);
        break;
      case 8:
        AddString(ctx, call);
        break;
      default:
        call.format += "%%";
        break;
    }
  }
  call.format += '\n';
  std::vector<uint32_t> operands{ConstantString(ctx, call.format)};
  operands.insert(operands.end(), call.args.begin(), call.args.end());
  const uint32_t result =
      ExtInst(ctx, ctx.types.Id(IntT(32)), OpenCLLIB::Printf, operands);
  // 0 on success: the result is as defined as any other value, except on
  // Oclgrind 21.10 (known-consumer-bugs/oclgrind_printf_return_value) and
  // Intel's CPU runtime 2026.2, which returns the characters printed
  // (intel_cpu_printf_return_value).
  if (ctx.BugsAllowed({KnownBugId::kOclgrindPrintfReturnValue,
                       KnownBugId::kIntelCpuPrintfReturnValue}) &&
      rng.Percent(40))
    AddValue(ctx, result, IntT(32));
  return true;
}

}  // namespace l0spv::generators::kernel
