// Private (function-scope) arrays filled with loops (never with an
// initialiser list: llvm-spirv 14 can emit an invalid module for those),
// indexed dynamically with masked indices; a 2-D private matrix multiply,
// a private array of structs, a private float4 array, a small insertion
// sort with data-dependent control flow, and a private array passed to a
// helper through a pointer.
typedef struct {
  ushort id;
  ushort weight;
} Item;

uint sum_first(__private const uint *a, uint count) {
  uint s = 0;
  for (uint i = 0; i < count; i++)
    s += a[i];
  return s;
}

__kernel void private_arrays(__global const uint *in, __global uint *out) {
  size_t g = get_global_id(0);
  uint arr[32];
  uint m[4][4], id4[4][4], prod[4][4];
  Item items[8];
  float4 fv[4];

  for (uint i = 0; i < 32; i++)
    arr[i] = in[(g * 32 + i) % 2048];
  for (uint r = 0; r < 4; r++)
    for (uint c = 0; c < 4; c++) {
      m[r][c] = arr[r * 4 + c] & 0xFFu;
      id4[r][c] = (r == c) ? 2u : (r + c) & 1u;
    }
  for (uint r = 0; r < 4; r++)
    for (uint c = 0; c < 4; c++) {
      uint s = 0;
      for (uint k = 0; k < 4; k++)
        s += m[r][k] * id4[k][c];
      prod[r][c] = s;
    }
  for (uint i = 0; i < 8; i++) {
    items[i].id = (ushort)i;
    items[i].weight = (ushort)(arr[16 + i] >> 20);
  }
  for (uint i = 0; i < 4; i++)
    fv[i] = convert_float4(as_uchar4(arr[i])) * 0.5f;

  // insertion sort of items by weight (stable)
  for (int i = 1; i < 8; i++) {
    Item key = items[i];
    int j = i - 1;
    while (j >= 0 && items[j].weight > key.weight) {
      items[j + 1] = items[j];
      j--;
    }
    items[j + 1] = key;
  }

  uint idx = arr[0] & 31u;                 // dynamic, masked index
  arr[idx] ^= 0xFFFFFFFFu;

  __global uint *o = out + 16 * g;
  o[0] = arr[idx];
  o[1] = arr[(idx + 7u) & 31u];
  o[2] = sum_first(arr, 32);
  o[3] = sum_first(arr + 8, idx & 7u);
  o[4] = prod[0][0] + prod[1][2] * 3u + prod[3][3] * 5u;
  o[5] = prod[idx & 3u][(idx >> 2) & 3u];
  uint order = 0;
  for (uint i = 0; i < 8; i++)
    order = (order << 4) | items[i].id;
  o[6] = order;
  o[7] = items[0].weight | ((uint)items[7].weight << 16);
  float4 fs = fv[0] + fv[1] - fv[2] * fv[3];
  o[8] = as_uint(fs.x);
  o[9] = as_uint(fs.y);
  o[10] = as_uint(fs.z);
  o[11] = as_uint(fs.w);
  o[12] = as_uint(fv[idx & 3u].y);
  o[13] = m[3][0] | (m[0][3] << 8);
  o[14] = id4[idx & 3u][2];
  o[15] = (uint)sizeof(items);
}
