// malloc, free, new and delete in a kernel: CUDA's device heap. One column.
__global__ void probe(const int* in, int n, int* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = t < n ? in[t] : 0;
  int* four = static_cast<int*>(malloc(4 * sizeof(int)));
  int* three = new int[3];
  if (!four || !three) {
    out[t] = -1;
    return;
  }
  for (int k = 0; k < 4; ++k) four[k] = v + k;
  for (int k = 0; k < 3; ++k) three[k] = 2 * v - k;
  out[t] = four[3] + three[2];
  free(four);
  delete[] three;
}
