// Saves models into a folder for tst_modelsave to kill: seeds FIRST, FIRST+1,
// ... one save after another, forever, or only FIRST with --once. Says
// "ready" before the first save.

#include "modelsave_child.h"

#include <QCoreApplication>
#include <cstdio>
#include <cstring>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (argc < 3 || argc > 4 || (argc == 4 && std::strcmp(argv[3], "--once") != 0)) {
        std::fprintf(stderr, "usage: modelsave_child DIRECTORY FIRST_SEED [--once]\n");
        return 2;
    }
    const QString dir = QString::fromLocal8Bit(argv[1]);
    const bool once = argc == 4;
    std::uint64_t seed = std::strtoull(argv[2], nullptr, 10);
    std::printf("ready\n");
    std::fflush(stdout);
    for (;; ++seed) {
        QString error;
        if (!saveChildModel(seed, dir, &error)) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return 1;
        }
        if (once)
            return 0;
    }
}
