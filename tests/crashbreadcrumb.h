#pragma once
// What a random-interaction test was doing, for a crash: the test writes a
// line before every action (setBreadcrumb), and a fatal signal prints it
// with the test's name before the previous handler (QTest's, or the
// default) finishes the job, so the action can be replayed.

#include <csignal>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <unistd.h>

namespace crashbreadcrumb {

inline char g_line[1024] = "";
inline const char *g_test = "test";
inline struct sigaction g_previousSegv, g_previousAbrt, g_previousFpe, g_previousBus;

inline void handler(int signal)
{
    const char prefix[] = "\ncrashed during: ";
    (void)!write(STDERR_FILENO, g_test, strlen(g_test));
    (void)!write(STDERR_FILENO, prefix, sizeof prefix - 1);
    (void)!write(STDERR_FILENO, g_line, strnlen(g_line, sizeof g_line));
    (void)!write(STDERR_FILENO, "\n", 1);
    const struct sigaction *previous = signal == SIGSEGV ? &g_previousSegv
        : signal == SIGABRT                              ? &g_previousAbrt
        : signal == SIGFPE                               ? &g_previousFpe
                                                         : &g_previousBus;
    sigaction(signal, previous, nullptr);
    raise(signal);
}

inline void install(const char *test)
{
    g_test = test;
    struct sigaction action {};
    action.sa_handler = handler;
    sigemptyset(&action.sa_mask);
    sigaction(SIGSEGV, &action, &g_previousSegv);
    sigaction(SIGABRT, &action, &g_previousAbrt);
    sigaction(SIGFPE, &action, &g_previousFpe);
    sigaction(SIGBUS, &action, &g_previousBus);
}

// printf-style; cut at 1023 bytes.
inline void set(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    std::vsnprintf(g_line, sizeof g_line, format, args);
    va_end(args);
}

} // namespace crashbreadcrumb
