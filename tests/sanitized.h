#pragma once
// ATTN_UNDER_ASAN is 1 when this file is compiled with AddressSanitizer:
// GCC says so with __SANITIZE_ADDRESS__, clang (the `asan` preset's
// compiler) only through __has_feature.

#if defined(__SANITIZE_ADDRESS__)
#define ATTN_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ATTN_UNDER_ASAN 1
#endif
#endif
#ifndef ATTN_UNDER_ASAN
#define ATTN_UNDER_ASAN 0
#endif
