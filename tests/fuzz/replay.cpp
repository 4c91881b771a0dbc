// Replays a fuzz target's corpus without libFuzzer: every file of the given
// folders (and every file given) goes through the target once, in name
// order. The test suites run it on tests/data/fuzz/ (the seeds and every
// input a fuzzer ever failed on), under the sanitizers too; scripts/fuzz
// does the fuzzing itself.
//   fuzz_replay TARGET PATH...
// Each target's LLVMFuzzerTestOneInput is compiled under its own name
// (tests/CMakeLists.txt), so all seven share this one program. A target
// aborts on a broken rule; this program fails on a path it cannot read or
// on finding nothing to replay (a test that could not fail otherwise).

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#define ATTN_FUZZ_TARGETS(X) X(session) X(tokenizer) X(cli) X(safetensors) X(bpe) X(wordpiece) X(modelconfig)
#define ATTN_DECLARE(name) extern "C" int attnFuzz_##name(const std::uint8_t *data, std::size_t size);
ATTN_FUZZ_TARGETS(ATTN_DECLARE)

namespace {

using Target = int (*)(const std::uint8_t *, std::size_t);

struct NamedTarget
{
    const char *name;
    Target run;
};

#define ATTN_ENTRY(name) {#name, attnFuzz_##name},
const NamedTarget kTargets[] = {ATTN_FUZZ_TARGETS(ATTN_ENTRY)};

// Regular files of `path` (itself when it is one), sorted; false when it is neither.
bool collect(const std::filesystem::path &path, std::vector<std::filesystem::path> &files)
{
    std::error_code ec;
    if (std::filesystem::is_regular_file(path, ec)) {
        files.push_back(path);
        return true;
    }
    if (!std::filesystem::is_directory(path, ec))
        return false;
    std::vector<std::filesystem::path> found;
    for (const auto &entry : std::filesystem::directory_iterator(path, ec))
        if (entry.is_regular_file())
            found.push_back(entry.path());
    std::sort(found.begin(), found.end());
    files.insert(files.end(), found.begin(), found.end());
    return !ec;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 3) {
        std::fprintf(stderr, "usage: fuzz_replay TARGET PATH...\n");
        return 2;
    }
    const auto target = std::find_if(std::begin(kTargets), std::end(kTargets),
                                     [&](const NamedTarget &t) { return std::strcmp(t.name, argv[1]) == 0; });
    if (target == std::end(kTargets)) {
        std::fprintf(stderr, "fuzz_replay: no target named %s\n", argv[1]);
        return 2;
    }
    std::vector<std::filesystem::path> files;
    for (int i = 2; i < argc; ++i) {
        if (!collect(argv[i], files)) {
            std::fprintf(stderr, "fuzz_replay: cannot read %s\n", argv[i]);
            return 1;
        }
    }
    if (files.empty()) {
        std::fprintf(stderr, "fuzz_replay: nothing to replay for %s\n", argv[1]);
        return 1;
    }
    for (const std::filesystem::path &file : files) {
        std::ifstream in(file, std::ios::binary);
        if (!in) {
            std::fprintf(stderr, "fuzz_replay: cannot read %s\n", file.c_str());
            return 1;
        }
        const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        // A copy of exactly its size, as libFuzzer gives: reading past it is caught by AddressSanitizer.
        std::vector<std::uint8_t> data(bytes.begin(), bytes.end());
        std::printf("%s\n", file.filename().c_str());
        std::fflush(stdout);
        target->run(data.data(), data.size());
    }
    std::printf("fuzz_%s: %zu inputs replayed\n", target->name, files.size());
    return 0;
}
