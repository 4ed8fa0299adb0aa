// OpenCL 1.x atomic built-ins on __global uint and int, used only in
// order-independent ways, so the final memory state does not depend on the
// order in which work-items run. Returned old values are only used where the
// location is private to the work-item or in a single-winner election.
// Exercises: atomic_add/sub/inc/dec/min/max/and/or/xor/xchg/cmpxchg,
// a CAS retry loop, early return.
__kernel void atomics_global(__global const uint *in, __global uint *ucnt,
                             __global int *icnt, __global uint *slots,
                             uint n) {
  uint gid = (uint)get_global_id(0);
  if (gid >= n)
    return;
  uint v = in[gid];
  int sv = as_int(v);

  // ucnt starts with random contents: every op below is commutative.
  atomic_add(&ucnt[0], v & 0xFFFFu);
  atomic_inc(&ucnt[1]);
  atomic_dec(&ucnt[2]);            // unsigned wrap-around is defined
  atomic_sub(&ucnt[3], v & 0xFFu);
  atomic_min(&ucnt[4], v);
  atomic_max(&ucnt[5], v);
  atomic_and(&ucnt[6], v | 0x0F0F0F0Fu);
  atomic_or(&ucnt[7], v & 0x00FF00FFu);
  atomic_xor(&ucnt[8], v);
  atomic_xchg(&ucnt[9], 0xA5A5A5A5u); // everybody stores the same value

  // Lock-free add via compare-and-swap retry loop (the first read is atomic).
  uint cur = atomic_add(&ucnt[10], 0u);
  for (;;) {
    uint seen = atomic_cmpxchg(&ucnt[10], cur, cur + (v >> 24));
    if (seen == cur)
      break;
    cur = seen;
  }

  // icnt starts zeroed. Signed sums stay far from overflow.
  atomic_min(&icnt[0], sv);
  atomic_max(&icnt[1], sv);
  atomic_add(&icnt[2], (sv >> 20));   // |term| <= 2048, n <= 256
  atomic_sub(&icnt[5], (int)(v & 0x7FFu));
  // Exactly one work-item wins the election; the counter ends at 1.
  if (atomic_cmpxchg(&icnt[3], 0, 1) == 0)
    atomic_inc(&icnt[4]);

  // Private slot: exchange returns the slot's initial (zero) content.
  uint old = atomic_xchg(&slots[gid], v);
  atomic_add(&slots[gid], old + 1u);
}
