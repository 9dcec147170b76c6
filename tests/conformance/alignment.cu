// __align__ and the vector types: CUDA's alignments and sizes, an aligned __shared__ buffer read
// as int4, and int4 loads of in[] (n a multiple of 4). Sixteen columns a thread.
struct __align__(16) Padded {
  int value;
};

__global__ void probe(const int* in, int n, int* out) {
  __shared__ __align__(16) unsigned char raw[16 * 1024];
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  int* o = out + 16 * t;
  o[0] = int(alignof(int2));
  o[1] = int(alignof(int4));
  o[2] = int(alignof(float2));
  o[3] = int(alignof(double2));
  o[4] = int(alignof(short4));
  o[5] = int(alignof(char4));
  o[6] = int(alignof(int3)) * 100 + int(sizeof(int3));
  o[7] = int(alignof(Padded)) * 100 + int(sizeof(Padded));
  o[8] = int(alignof(longlong2));
  o[9] = int(alignof(uchar2));
  o[10] = int(reinterpret_cast<unsigned long long>(raw) % 16);
  int4* cells = reinterpret_cast<int4*>(raw);
  cells[threadIdx.x] = make_int4(t, 2 * t, 3 * t, 4 * t);
  __syncthreads();
  const int4 mine = cells[threadIdx.x];
  o[11] = mine.x + mine.y + mine.z + mine.w;
  if (4 * t + 3 < n) {
    const int4 four = reinterpret_cast<const int4*>(in)[t];
    o[12] = four.x + four.y + four.z + four.w;
    const int4 cached = __ldg(reinterpret_cast<const int4*>(in) + t);
    o[13] = cached.w;
  }
  const float4 f = make_float4(1.0f, 2.0f, 3.0f, 4.0f);
  o[14] = int(f.x + f.y + f.z + f.w);
  o[15] = int(sizeof(float4)) * 100 + int(alignof(float4));
}
