#ifndef SPRINGTUNE_CPUCHECK_H
#define SPRINGTUNE_CPUCHECK_H

/// The x86-64 micro-architecture level the build targets: 3 when `make` built for x86-64-v3
/// (AVX2, FMA, BMI2; `-target-cpu haswell`, marked by `-DSPRINGTUNE_X86_64_V3`), else 1 (the
/// baseline). A level-3 build checks the CPU before `main` and exits 69 with one line on a CPU
/// without those instructions, instead of dying of an illegal instruction somewhere later.
int springtune_build_level(void);

#endif
