// Replays a fuzz target's corpus without libFuzzer: every file of the given
// folders (and every file given) goes through the target once, in name
// order. The test suites run it on tests/data/fuzz/ (the seeds and every
// input a fuzzer ever failed on), under the sanitizers too; scripts/fuzz
// does the fuzzing itself.
//   fuzz_replay TARGET PATH...
// Each target's LLVMFuzzerTestOneInput is compiled under its own name
// (tests/CMakeLists.txt), so all nine share this one program. A target
// aborts on a broken rule; this program fails on a path it cannot read or
// on finding nothing to replay (a test that could not fail otherwise).

#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStringList>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#define ATTN_FUZZ_TARGETS(X) X(session) X(tokenizer) X(cli) X(safetensors) X(bpe) X(wordpiece) X(modelconfig) X(gguf) X(ollama)
#define ATTN_DECLARE(name) extern "C" int attnFuzz_##name(const std::uint8_t *data, std::size_t size);
ATTN_FUZZ_TARGETS(ATTN_DECLARE)

namespace {

struct NamedTarget
{
    const char *name;
    int (*run)(const std::uint8_t *, std::size_t);
};

#define ATTN_ENTRY(name) {#name, attnFuzz_##name},
const NamedTarget kTargets[] = {ATTN_FUZZ_TARGETS(ATTN_ENTRY)};

// Files of `path` (itself when it is one), in name order; false when it is neither.
bool collect(const QString &path, QStringList &files)
{
    const QFileInfo info(path);
    if (info.isFile()) {
        files << path;
        return true;
    }
    if (!info.isDir())
        return false;
    for (const QFileInfo &file : QDir(path).entryInfoList(QDir::Files, QDir::Name))
        files << file.filePath();
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 3) {
        std::fprintf(stderr, "usage: fuzz_replay TARGET PATH...\n");
        return 2;
    }
    const NamedTarget *target = nullptr;
    for (const NamedTarget &t : kTargets)
        if (std::strcmp(t.name, argv[1]) == 0)
            target = &t;
    if (!target) {
        std::fprintf(stderr, "fuzz_replay: no target named %s\n", argv[1]);
        return 2;
    }
    QStringList files;
    for (int i = 2; i < argc; ++i) {
        if (!collect(QString::fromLocal8Bit(argv[i]), files)) {
            std::fprintf(stderr, "fuzz_replay: cannot read %s\n", argv[i]);
            return 1;
        }
    }
    if (files.isEmpty()) {
        std::fprintf(stderr, "fuzz_replay: nothing to replay for %s\n", argv[1]);
        return 1;
    }
    for (const QString &path : files) {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            std::fprintf(stderr, "fuzz_replay: cannot read %s\n", qPrintable(path));
            return 1;
        }
        // A copy of exactly its size, as libFuzzer gives (QByteArray keeps a
        // terminating zero after its bytes): reading past it is caught by AddressSanitizer.
        const QByteArray read = file.readAll();
        const std::vector<std::uint8_t> bytes(read.begin(), read.end());
        std::printf("%s\n", qPrintable(QFileInfo(path).fileName()));
        std::fflush(stdout);
        target->run(bytes.data(), bytes.size());
    }
    std::printf("fuzz_%s: %lld inputs replayed\n", target->name, static_cast<long long>(files.size()));
    return 0;
}
