// 8-, 16- and 64-bit integer arithmetic: wrap-around on unsigned types,
// signed arithmetic kept in range, sign/zero extension and truncation between
// widths, 64-bit shifts with masked counts, and mixed-width comparisons.
__kernel void int_widths(__global const uchar *in8, __global const ushort *in16,
                         __global const ulong *in64, __global ulong *out) {
  size_t g = get_global_id(0);
  uchar b0 = in8[2 * g], b1 = in8[2 * g + 1];
  ushort h0 = in16[2 * g], h1 = in16[2 * g + 1];
  ulong w0 = in64[2 * g], w1 = in64[2 * g + 1];

  // 8-bit: unsigned wrap, signed values promoted to int before arithmetic
  uchar bsum = (uchar)(b0 + b1);
  uchar bmul = (uchar)(b0 * b1);
  char sb0 = as_char(b0), sb1 = as_char(b1);
  int bdiff = sb0 - sb1;                 // in [-255, 255]
  char bneg = (char)(sb0 == -128 ? 127 : -sb0);

  // 16-bit
  ushort hsum = (ushort)(h0 + h1);
  ushort hmul = (ushort)((uint)h0 * (uint)h1); // widened to avoid int overflow
  short sh0 = as_short(h0), sh1 = as_short(h1);
  int hprod = (int)sh0 * (int)sh1;       // |product| <= 2^30
  short hshr = (short)(sh0 >> (h1 & 15));

  // 64-bit: unsigned wrap, masked shifts, signed ops in range
  ulong wsum = w0 + w1;
  ulong wmul = w0 * w1;
  ulong wshl = w0 << (w1 & 63);
  ulong wshr = w1 >> (w0 & 63);
  long sw0 = as_long(w0) >> 2, sw1 = as_long(w1) >> 2; // |x| <= 2^61
  long wdiff = sw0 - sw1;                // |diff| < 2^62, no overflow
  long sshr = as_long(w0) >> (int)(w1 & 63);

  // extension / truncation between widths
  long sext8 = (long)sb0;                // sign-extend char -> long
  ulong zext16 = (ulong)h0;              // zero-extend ushort -> ulong
  uchar trunc64 = (uchar)w0;
  short trunc32 = as_short((ushort)(uint)(w1 >> 7));

  __global ulong *o = out + 16 * g;
  o[0] = bsum | ((ulong)bmul << 8) | ((ulong)(uchar)bneg << 16) |
         ((ulong)(uint)bdiff << 32);
  o[1] = hsum | ((ulong)hmul << 16) | ((ulong)(ushort)hshr << 32);
  o[2] = (ulong)(long)hprod;
  o[3] = wsum;
  o[4] = wmul;
  o[5] = wshl;
  o[6] = wshr;
  o[7] = as_ulong(wdiff);
  o[8] = as_ulong(sshr);
  o[9] = as_ulong(sext8);
  o[10] = zext16;
  o[11] = trunc64 | ((ulong)(ushort)trunc32 << 8);
  o[12] = (sb0 < sb1) | ((sh0 > sh1) << 1) | ((as_long(w0) < as_long(w1)) << 2) |
          ((w0 < w1) << 3) | ((h0 > b0) << 4);
  o[13] = (ulong)(b0 / (uchar)(b1 | 1)) | ((ulong)(h0 % (ushort)(h1 | 1)) << 16);
  o[14] = w0 / (w1 | 1UL);
  o[15] = w0 % ((w1 >> 40) | 1UL);
}
