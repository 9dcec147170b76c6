// Exercise fold-any-length: one step of the fold, for any length.
//
// The host launches this with len = n, then again with what is left, until len is 1:
//     for (long long len = n; len > 1; len -= len / 2)
//       foldStep<<<blocks, threads>>>(a, len);  // (len + 1) / 2 threads in all
// and a[0] then holds the total. Each launch folds the back half of a[0..len-1] onto the
// front half.
__global__ void foldStep(int* a, long long len) {
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  // TODO: fold. With len odd, the middle element has no partner and must wait for the next
  // step, untouched.
}
