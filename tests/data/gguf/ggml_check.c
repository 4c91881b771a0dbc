// Cross-check helper for make_gguf.py --check-c, built against ggml's own sources
// (README.md shows how). Not part of the build: it only verifies the fixtures.
#include "ggml.h"
#include "gguf.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *slurp(const char *p, size_t *n) {
    FILE *f = fopen(p, "rb"); fseek(f, 0, SEEK_END); *n = ftell(f); fseek(f, 0, SEEK_SET);
    void *b = malloc(*n ? *n : 1); fread(b, 1, *n, f); fclose(f); return b;
}
int main(int argc, char **argv) {
    if (argc >= 7 && (!strcmp(argv[1], "quant") || !strcmp(argv[1], "dequant"))) {
        int type = atoi(argv[2]); long n = atol(argv[3]), rows = atol(argv[4]);
        const struct ggml_type_traits *t = ggml_get_type_traits(type);
        size_t rb = ggml_row_size(type, n), len;
        void *in = slurp(argv[5], &len);
        FILE *o = fopen(argv[6], "wb");
        if (!strcmp(argv[1], "quant")) {
            void *out = malloc(rb);
            for (long r = 0; r < rows; r++) { t->from_float_ref((float *)in + r * n, out, n); fwrite(out, 1, rb, o); }
        } else {
            float *out = malloc(n * 4);
            for (long r = 0; r < rows; r++) { t->to_float((char *)in + r * rb, out, n); fwrite(out, 4, n, o); }
        }
        fclose(o); return 0;
    }
    if (argc >= 3 && !strcmp(argv[1], "gguf")) {
        struct ggml_context *ctx = NULL;
        struct gguf_init_params p = { .no_alloc = false, .ctx = &ctx };
        struct gguf_context *g = gguf_init_from_file(argv[2], p);
        if (!g) { printf("REFUSED\n"); return 1; }
        printf("OK version=%u kv=%lld tensors=%lld align=%zu\n", gguf_get_version(g), (long long)gguf_get_n_kv(g),
               (long long)gguf_get_n_tensors(g), gguf_get_alignment(g));
        for (int64_t i = 0; i < gguf_get_n_tensors(g); i++) {
            const char *name = gguf_get_tensor_name(g, i);
            struct ggml_tensor *t = ggml_get_tensor(ctx, name);
            bool valid = ggml_validate_row_data(t->type, t->data, ggml_nbytes(t));
            printf("tensor %s type=%s ne=%lld,%lld,%lld,%lld valid=%d\n", name, ggml_type_name(t->type),
                   (long long)t->ne[0], (long long)t->ne[1], (long long)t->ne[2], (long long)t->ne[3], valid);
            if (argc >= 4) {
                char path[4096]; snprintf(path, sizeof path, "%s/%s.f32", argv[3], name);
                FILE *o = fopen(path, "wb");
                int64_t n = ggml_nelements(t); float *out = malloc(n * 4);
                if (t->type == GGML_TYPE_F32) memcpy(out, t->data, n * 4);
                else ggml_get_type_traits(t->type)->to_float(t->data, out, n);
                fwrite(out, 4, n, o); fclose(o); free(out);
            }
        }
        return 0;
    }
    fprintf(stderr, "usage\n"); return 2;
}
