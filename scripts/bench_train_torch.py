#!/usr/bin/python3
"""The training step `attention-explorer train` times, in PyTorch.

    /usr/bin/python3 scripts/bench_train_torch.py [--steps N] [--warmup W] [--threads T]
        [--family gpt2|llama] [--layers L] [--heads H] [--kv-heads G] [--tie-embeddings]
        [--d-model D] [--context N] [--batch B] [--vocab V] [--lr RATE]

The defaults are those of `train --task induction` (core/learn/trainer.cpp
defaultSettings): 2 layers, 4 heads, d_model 64, context 64, batch 8, vocab 32,
lr 1e-3. The model is the trainer's GPT-2 (core/learn/gpt2training.cpp):
learned positions, pre-LayerNorm blocks (eps 1e-5), causal attention scaled by
1/sqrt(head_dim), gelu_new MLP of width 4 * d_model, every dense layer with a
bias, final LayerNorm, unembedding tied to the token embedding, no dropout;
initialised as Trainer::initialModel does (the values do not change the cost).
q, k and v are one fused (d, 3d) product here, as GPT-2's c_attn is: the same
arithmetic, and the faster way to write it in torch. Each step, as
Trainer::step: a fresh batch, forward over the whole vocabulary, cross-entropy
weighted by the batch's 0/1 weights and divided by their sum, backward, the
gradients' global norm clipped to 1, then torch.optim.AdamW (betas 0.9/0.999,
eps 1e-8, weight decay 0.01 on matrices only, biases and norms 0) at the
trainer's learning rate (linear warm-up over 100 steps, then constant).

With --family llama the model is the trainer's Llama block instead
(core/learn/trainingpass.cpp with Trainer::configFor's recipe): no position
table; RMSNorm (eps 1e-5) before each sublayer and at the end; q, k and v
without biases, q and k turned by rotary positions (theta 10000, the
rotate-half pairing, cos and sin tables computed once); --kv-heads key/value
heads, each read by heads / kv-heads query heads (repeat_interleave, as
transformers' repeat_kv); a SwiGLU MLP down(silu(gate(x)) * up(x)) of width
8 * d_model / 3 rounded up to a multiple of 16, no biases; a separate lm_head
unless --tie-embeddings; one more token in the vocabulary (the beginning
token the trainer puts first in every sequence, as here). q, k and v are
separate products there; here too.

The data are induction-shaped (random tokens, one random stretch repeated
later, the loss counted on the repeat) but not the C++ generator's sequences:
only the cost of a step is compared. float32, torch.set_num_threads(T) (2
unless told). W untimed steps, then N timed ones; prints one JSON line.
On a machine where another process holds a core, two OpenMP threads spin
waiting for it and a step costs ten times as much; OMP_WAIT_POLICY=PASSIVE
in the environment, or --threads 1, shows what PyTorch does without that.
"""
import argparse
import json
import math
import random
import time

import torch
import torch.nn.functional as F


class Block(torch.nn.Module):
    def __init__(self, d, heads, layers):
        super().__init__()
        self.heads = heads
        self.ln_1 = torch.nn.LayerNorm(d, eps=1e-5)
        self.c_attn = torch.nn.Linear(d, 3 * d)
        self.attn_proj = torch.nn.Linear(d, d)
        self.ln_2 = torch.nn.LayerNorm(d, eps=1e-5)
        self.c_fc = torch.nn.Linear(d, 4 * d)
        self.mlp_proj = torch.nn.Linear(4 * d, d)
        residual = 1.0 / math.sqrt(2.0 * layers)
        with torch.no_grad():
            for lin in (self.c_attn, self.c_fc):
                lin.weight.uniform_(-1 / math.sqrt(d), 1 / math.sqrt(d))
            self.attn_proj.weight.uniform_(-residual / math.sqrt(d), residual / math.sqrt(d))
            self.mlp_proj.weight.uniform_(-residual / math.sqrt(4 * d), residual / math.sqrt(4 * d))
            for lin in (self.c_attn, self.attn_proj, self.c_fc, self.mlp_proj):
                lin.bias.zero_()

    def forward(self, x, mask):
        b, n, d = x.shape
        hd = d // self.heads
        q, k, v = self.c_attn(self.ln_1(x)).split(d, dim=2)
        q, k, v = (t.view(b, n, self.heads, hd).transpose(1, 2) for t in (q, k, v))
        s = (q @ k.transpose(-1, -2)) * (1.0 / math.sqrt(hd))
        attn = torch.softmax(s.masked_fill(mask, float("-inf")), dim=-1)
        z = (attn @ v).transpose(1, 2).reshape(b, n, d)
        x = x + self.attn_proj(z)
        return x + self.mlp_proj(F.gelu(self.c_fc(self.ln_2(x)), approximate="tanh"))


class Gpt2(torch.nn.Module):
    def __init__(self, layers, heads, d, context, vocab):
        super().__init__()
        self.wte = torch.nn.Parameter(torch.empty(vocab, d).uniform_(-math.sqrt(3 / d), math.sqrt(3 / d)))
        self.wpe = torch.nn.Parameter(torch.empty(context, d).uniform_(-math.sqrt(3 / d), math.sqrt(3 / d)))
        self.h = torch.nn.ModuleList(Block(d, heads, layers) for _ in range(layers))
        self.ln_f = torch.nn.LayerNorm(d, eps=1e-5)
        self.register_buffer("mask", torch.ones(context, context, dtype=torch.bool).triu(1))

    def forward(self, ids):
        n = ids.shape[1]
        x = self.wte[ids] + self.wpe[:n]
        for block in self.h:
            x = block(x, self.mask[:n, :n])
        return self.ln_f(x) @ self.wte.t()  # tied unembedding: logits over the whole vocabulary


def rms_norm(x, weight, eps=1e-5):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * weight


def rotate_half(x):
    half = x.shape[-1] // 2
    return torch.cat((-x[..., half:], x[..., :half]), dim=-1)


class LlamaBlock(torch.nn.Module):
    def __init__(self, d, heads, kv_heads, inner, layers):
        super().__init__()
        self.heads, self.kv_heads, self.hd = heads, kv_heads, d // heads
        self.norm_1 = torch.nn.Parameter(torch.ones(d))
        self.norm_2 = torch.nn.Parameter(torch.ones(d))
        self.q = torch.nn.Linear(d, heads * self.hd, bias=False)
        self.k = torch.nn.Linear(d, kv_heads * self.hd, bias=False)
        self.v = torch.nn.Linear(d, kv_heads * self.hd, bias=False)
        self.o = torch.nn.Linear(heads * self.hd, d, bias=False)
        self.gate = torch.nn.Linear(d, inner, bias=False)
        self.up = torch.nn.Linear(d, inner, bias=False)
        self.down = torch.nn.Linear(inner, d, bias=False)
        residual = 1.0 / math.sqrt(2.0 * layers)
        with torch.no_grad():
            for lin in (self.q, self.k, self.v, self.gate, self.up):
                lin.weight.uniform_(-1 / math.sqrt(d), 1 / math.sqrt(d))
            self.o.weight.uniform_(-residual / math.sqrt(d), residual / math.sqrt(d))
            self.down.weight.uniform_(-residual / math.sqrt(inner), residual / math.sqrt(inner))

    def forward(self, x, mask, cos, sin):
        b, n, d = x.shape
        y = rms_norm(x, self.norm_1)
        q = self.q(y).view(b, n, self.heads, self.hd).transpose(1, 2)
        k = self.k(y).view(b, n, self.kv_heads, self.hd).transpose(1, 2)
        v = self.v(y).view(b, n, self.kv_heads, self.hd).transpose(1, 2)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        group = self.heads // self.kv_heads
        if group > 1:
            k = k.repeat_interleave(group, dim=1)
            v = v.repeat_interleave(group, dim=1)
        s = (q @ k.transpose(-1, -2)) * (1.0 / math.sqrt(self.hd))
        attn = torch.softmax(s.masked_fill(mask, float("-inf")), dim=-1)
        z = (attn @ v).transpose(1, 2).reshape(b, n, self.heads * self.hd)
        x = x + self.o(z)
        y = rms_norm(x, self.norm_2)
        return x + self.down(F.silu(self.gate(y)) * self.up(y))


class Llama(torch.nn.Module):
    def __init__(self, layers, heads, kv_heads, d, context, vocab, tied):
        super().__init__()
        inner = (8 * d + 3 * 16 - 1) // (3 * 16) * 16
        limit = math.sqrt(3 / d)
        self.embed = torch.nn.Parameter(torch.empty(vocab, d).uniform_(-limit, limit))
        self.lm_head = None if tied else torch.nn.Parameter(torch.empty(vocab, d).uniform_(-limit, limit))
        self.layers = torch.nn.ModuleList(LlamaBlock(d, heads, kv_heads, inner, layers) for _ in range(layers))
        self.norm = torch.nn.Parameter(torch.ones(d))
        self.register_buffer("mask", torch.ones(context, context, dtype=torch.bool).triu(1))
        hd = d // heads
        inv_freq = 1.0 / (10000.0 ** (torch.arange(0, hd, 2).float() / hd))
        angles = torch.arange(context).float()[:, None] * inv_freq[None, :]
        emb = torch.cat((angles, angles), dim=-1)
        self.register_buffer("cos", emb.cos())
        self.register_buffer("sin", emb.sin())

    def forward(self, ids):
        n = ids.shape[1]
        x = self.embed[ids]
        for block in self.layers:
            x = block(x, self.mask[:n, :n], self.cos[:n], self.sin[:n])
        head = self.embed if self.lm_head is None else self.lm_head
        return rms_norm(x, self.norm) @ head.t()


def induction_batch(rng, batch, context, vocab):
    """Random tokens with one stretch repeated later; weight 1 on the predictable repeat."""
    n = context + 1
    seqs = [[rng.randrange(vocab) for _ in range(n)] for _ in range(batch)]
    weights = torch.zeros(batch, n)
    for row, seq in enumerate(seqs):
        longest = max(1, n // 2)
        shortest = min(longest, max(2, n // 16))
        stretch = rng.randint(shortest, longest)
        distance = stretch + rng.randint(0, n - 2 * stretch)
        first = rng.randint(0, n - distance - stretch)
        second = first + distance
        seq[second:second + stretch] = seq[first:first + stretch]
        weights[row, second + 1:second + stretch] = 1.0
    tokens = torch.tensor(seqs)
    return tokens[:, :-1], tokens[:, 1:], weights[:, 1:]


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--steps", type=int, default=1000)
    p.add_argument("--warmup", type=int, default=20, help="untimed steps first")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--family", choices=("gpt2", "llama"), default="gpt2")
    p.add_argument("--layers", type=int, default=2)
    p.add_argument("--heads", type=int, default=4)
    p.add_argument("--kv-heads", type=int, default=0, help="llama: key/value heads (default: one per head)")
    p.add_argument("--tie-embeddings", action="store_true", help="llama: no separate lm_head")
    p.add_argument("--d-model", type=int, default=64)
    p.add_argument("--context", type=int, default=64)
    p.add_argument("--batch", type=int, default=8)
    p.add_argument("--vocab", type=int, default=32)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--lr-warmup", type=int, default=100, help="the trainer's linear warm-up steps")
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()

    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    rng = random.Random(a.seed)
    vocab = a.vocab
    if a.family == "llama":
        vocab = a.vocab + 1  # the beginning token, first in every sequence
        model = Llama(a.layers, a.heads, a.kv_heads or a.heads, a.d_model, a.context, vocab, a.tie_embeddings)
    else:
        model = Gpt2(a.layers, a.heads, a.d_model, a.context, a.vocab)
    matrices = [q for q in model.parameters() if q.dim() == 2]
    vectors = [q for q in model.parameters() if q.dim() != 2]
    optimiser = torch.optim.AdamW([{"params": matrices, "weight_decay": 0.01},
                                   {"params": vectors, "weight_decay": 0.0}],
                                  lr=a.lr, betas=(0.9, 0.999), eps=1e-8)

    def step(done):
        upcoming = done + 1
        lr = a.lr * upcoming / a.lr_warmup if upcoming < a.lr_warmup else a.lr
        for group in optimiser.param_groups:
            group["lr"] = lr
        if a.family == "llama":
            inputs, targets, weights = induction_batch(rng, a.batch, a.context - 1, a.vocab)
            first = torch.full((a.batch, 1), a.vocab, dtype=inputs.dtype)
            targets = torch.cat((inputs[:, :1], targets), dim=1)
            inputs = torch.cat((first, inputs), dim=1)
            weights = torch.cat((torch.zeros(a.batch, 1), weights), dim=1)
        else:
            inputs, targets, weights = induction_batch(rng, a.batch, a.context, a.vocab)
        logits = model(inputs)
        per_token = F.cross_entropy(logits.reshape(-1, vocab), targets.reshape(-1), reduction="none")
        loss = (per_token * weights.reshape(-1)).sum() / weights.sum()
        optimiser.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimiser.step()
        return loss.item()  # the trainer reads each step's loss too

    for i in range(a.warmup):
        step(i)
    start = time.perf_counter()
    for i in range(a.steps):
        step(a.warmup + i)
    seconds = time.perf_counter() - start
    print(json.dumps({"steps_per_second": a.steps / seconds, "steps": a.steps, "family": a.family,
                      "layers": a.layers, "heads": a.heads, "kv_heads": a.kv_heads or a.heads, "d_model": a.d_model, "context": a.context, "batch": a.batch,
                      "threads": a.threads}))


if __name__ == "__main__":
    main()
