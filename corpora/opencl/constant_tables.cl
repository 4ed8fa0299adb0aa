// Program-scope __constant data (arrays of integers, floats, structs, a
// string) plus a __constant pointer kernel argument.
// Exercises: module-scope UniformConstant OpVariables with initialisers,
// dynamic indexing into them, Horner polynomial evaluation with dyadic
// coefficients (exact), table-driven byte substitution.
typedef struct {
  int bias;
  short mul;
  short shift;
} Rule;

__constant uchar sbox[16] = {0xC, 0x5, 0x6, 0xB, 0x9, 0x0, 0xA, 0xD,
                             0x3, 0xE, 0xF, 0x8, 0x4, 0x7, 0x1, 0x2};
__constant float poly[5] = {0.5f, -0.25f, 0.125f, 2.0f, -1.0f};
__constant Rule rules[4] = {{10, 3, 1}, {-7, 5, 2}, {1000, -2, 0}, {0, 1, 4}};
__constant char tag[] = "l0spv";
__constant uint primes[8] = {2, 3, 5, 7, 11, 13, 17, 19};

uint substitute(uint x) {
  uint r = 0;
  for (uint i = 0; i < 8; i++)
    r |= (uint)sbox[(x >> (4 * i)) & 0xFu] << (4 * i);
  return r;
}

__kernel void constant_tables(__global const uint *in, __constant uint *lut,
                              __global uint *out) {
  size_t g = get_global_id(0);
  uint x = in[g];
  float t = (float)(x & 0xFFu) * 0.0625f - 8.0f;   // [-8, 8), 1/16 steps
  float p = 0.0f;
  for (int i = 4; i >= 0; i--)
    p = p * t + poly[i];                          // exact at these sizes

  Rule r = rules[x & 3u];
  int rv = ((int)(x >> 24) * r.mul + r.bias) >> r.shift;

  __global uint *o = out + 6 * g;
  o[0] = substitute(x);
  o[1] = as_uint(p);
  o[2] = as_uint(rv);
  o[3] = (uint)tag[x % 5u] * primes[(x >> 3) & 7u];
  o[4] = lut[x & 63u] + lut[(x >> 6) & 63u];
  o[5] = (uint)sizeof(tag) + ((uint)sizeof(rules) << 8);
}
