// Every atomic CUDA has, on memory a block sets up first (__shared__, and for the float2 and the
// 16-byte atomics, which CUDA has for global memory, the block's own cells of out[]), each
// thread bringing its value; after the block's barrier thread 0 writes what they left.
// Thirty-two columns a block: 24 results, then the float2 and the 16-byte cells.
struct __align__(16) Quad {
  unsigned a, b, c, d;
};

__global__ void probe(const int* in, int n, int* out) {
  __shared__ int si[8];
  __shared__ unsigned su[8];
  __shared__ unsigned long long sl[2];
  __shared__ long long sll[2];
  __shared__ float sf;
  __shared__ double sd;
  __shared__ unsigned short sh;
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = t < n ? in[t] : 0;
  int* o = out + 32 * blockIdx.x;
  float2* sf2 = reinterpret_cast<float2*>(o + 24);
  Quad* quad = reinterpret_cast<Quad*>(o + 28);
  if (threadIdx.x == 0) {
    for (int k = 0; k < 8; ++k) si[k] = 0;
    si[2] = -2147483647 - 1;
    si[3] = 2147483647;
    su[0] = 0xffffffffu;  // and
    su[1] = 0;            // or
    su[2] = 0;            // xor
    su[3] = 0;            // inc
    su[4] = 0;            // dec
    su[5] = 0;            // add
    su[6] = 0;            // max
    su[7] = 0xffffffffu;  // min
    sl[0] = 0;
    sl[1] = 0;
    sll[0] = -9223372036854775807LL - 1;
    sll[1] = 9223372036854775807LL;
    sf = 0.0f;
    sd = 0.0;
    *sf2 = make_float2(0.0f, 0.0f);
    sh = 0;
    *quad = Quad{0, 0, 0, 0};
  }
  __syncthreads();
  atomicAdd(&si[0], v);
  atomicSub(&si[1], v);
  atomicMax(&si[2], v);
  atomicMin(&si[3], v);
  atomicAnd(&su[0], unsigned(v) | 0x80000000u);
  atomicOr(&su[1], unsigned(v) & 0x00ff00ffu);
  atomicXor(&su[2], unsigned(v));
  atomicInc(&su[3], 6u);
  atomicDec(&su[4], 6u);
  atomicAdd(&su[5], unsigned(v));
  atomicMax(&su[6], unsigned(v));
  atomicMin(&su[7], unsigned(v));
  atomicAdd(&sl[0], (unsigned long long)(v + 1000));
  atomicXor(&sl[1], ((unsigned long long)unsigned(v) << 32) | unsigned(v));
  atomicMax(&sll[0], (long long)v * 100000);
  atomicMin(&sll[1], (long long)v * 100000);
  atomicAdd(&sf, float(v));
  atomicAdd(&sd, double(v));
  atomicAdd(sf2, make_float2(float(v), float(2 * v)));
  const int old = atomicExch(&si[4], int(threadIdx.x) + 1);
  atomicAdd(&si[5], old);
  if (atomicCAS(&si[6], 0, int(threadIdx.x) + 1) == 0) atomicAdd_block(&si[7], 1);
  if (atomicCAS(&sh, (unsigned short)0, (unsigned short)7) == 0) atomicAdd_system(&si[7], 10);
  if (threadIdx.x == 0) atomicCAS(quad, Quad{0, 0, 0, 0}, Quad{1, 2, 3, 4});
  __syncthreads();
  if (threadIdx.x == 0) {
    o[0] = si[0];
    o[1] = si[1];
    o[2] = si[2];
    o[3] = si[3];
    o[4] = int(su[0]);
    o[5] = int(su[1]);
    o[6] = int(su[2]);
    o[7] = int(su[3]);
    o[8] = int(su[4]);
    o[9] = int(su[5]);
    o[10] = int(su[6]);
    o[11] = int(su[7]);
    o[12] = int(sl[0] & 0xffffffffu);
    o[13] = int(sl[0] >> 32);
    o[14] = int(sl[1] >> 32);
    o[15] = int(sll[0] / 100000);
    o[16] = int(sll[1] / 100000);
    o[17] = int(sf);
    o[18] = int(sd);
    o[19] = int(sf2->x) + 1000 * int(sf2->y);
    o[20] = si[4] + si[5];  // the last exchange and everything the others found
    o[21] = si[6] != 0;
    o[22] = si[7];
    const Quad q = *quad;
    o[23] = int(q.a + 10 * q.b + 100 * q.c + 1000 * q.d);
    for (int k = 24; k < 32; ++k) o[k] = 0;
  }
}
