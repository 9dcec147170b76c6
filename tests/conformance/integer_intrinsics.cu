// The integer intrinsics on each thread's value. Ten columns.
__global__ void probe(const int* in, int n, int* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = t < n ? in[t] : 0;
  const long long wide = (long long)v * 1000003;
  int* o = out + 10 * t;
  o[0] = __popc(unsigned(v));
  o[1] = __popcll((unsigned long long)wide);
  o[2] = __clz(v);
  o[3] = __clzll(wide);
  o[4] = __ffs(v);
  o[5] = __ffsll((long long)((unsigned long long)wide << 20));
  o[6] = int(__brev(unsigned(v)));
  o[7] = int(__brevll((unsigned long long)wide) >> 32);
  o[8] = int(__fns(unsigned(v), threadIdx.x % 32, 2));
  o[9] = int(__fns(unsigned(v), threadIdx.x % 32, -1));
}
