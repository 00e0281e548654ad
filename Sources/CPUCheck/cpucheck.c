// Compiled without the Swift targets' CPU flags, so this check itself runs on any x86-64.
#include "CPUCheck.h"

#if defined(__x86_64__) && defined(SPRINGTUNE_X86_64_V3)
#include <unistd.h>

__attribute__((constructor)) static void springtune_require_x86_64_v3(void) {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2")) return;
    static const char message[] = "springtune: this build targets x86-64-v3 (AVX2, FMA, BMI2) and this CPU lacks them; "
                                  "build it on this machine (make CPU_FLAGS= build, or swift build -c release)\n";
    (void)!write(2, message, sizeof message - 1);
    _exit(69); // EX_UNAVAILABLE
}

int springtune_build_level(void) { return 3; }
#else
int springtune_build_level(void) { return 1; }
#endif
