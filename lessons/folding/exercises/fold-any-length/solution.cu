// Exercise fold-any-length: one step of the fold, for any length.
//
// reduce = len / 2 elements are added on; remain = len - reduce are left. Adding a[i + remain]
// (not a[i + reduce]) keeps the middle element of an odd length in the front part, where it
// waits for the next step. The launch has remain threads, one more than there are pairs when
// len is odd: that thread does nothing.
__global__ void foldStep(int* a, long long len) {
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  const long long reduce = len / 2, remain = len - reduce;
  if (i < reduce) a[i] += a[i + remain];
}
