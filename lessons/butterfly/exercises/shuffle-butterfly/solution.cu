// Exercise shuffle-butterfly: every lane of a warp ends with the warp's total.
//
// At step b (16, 8, 4, 2, 1) each lane adds the value of lane ^ b, read straight from that
// lane's register: after five steps every lane holds the sum of all 32. No shared memory, no
// barrier; every lane takes part in every shuffle, those past n with 0.
__global__ void allReduce(const int* in, long long n, int* out) {
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  for (int b = 16; b > 0; b /= 2) v += __shfl_xor_sync(0xffffffffu, v, b);
  if (i < n) out[i] = v;
}
