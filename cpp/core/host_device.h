// Marks functions shared by the CPU engine and CUDA kernels.
#pragma once

#if defined(__CUDACC__)
#define ENVPOOL_X_HD __host__ __device__
#else
#define ENVPOOL_X_HD
#endif
