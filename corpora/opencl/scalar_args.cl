// Kernel arguments of every scalar integer width, signed and unsigned, plus
// float: checks argument marshalling (sizes, sign extension, alignment
// between differently sized arguments).
__kernel void scalar_args(char c, short s, int i, long l, uchar uc,
                          ushort us, uint ui, ulong ul, float f,
                          __global long *out) {
  size_t g = get_global_id(0);
  __global long *o = out + 10 * g;
  o[0] = c;                 // sign-extended
  o[1] = s;
  o[2] = i;
  o[3] = l;
  o[4] = uc;                // zero-extended
  o[5] = us;
  o[6] = ui;
  o[7] = as_long(ul);
  o[8] = as_int(f);
  o[9] = (long)g * (long)c + (long)s;
}
