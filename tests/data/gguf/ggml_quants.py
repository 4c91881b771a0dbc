"""numpy ports of ggml's reference quantisers and dequantisers.

Written from ggml/src/ggml-quants.c (quantize_row_*_ref, dequantize_row_*,
make_qx_quants, make_q3_quants, make_qkx2_quants, get_scale_min_k4,
nearest_int) and the block structs of ggml/src/ggml-common.h. Every float
operation is float32 and in the C order, so the results are bit for bit
those of the C code compiled without fused multiply-add (ggml's reference
functions, used by llama-quantize when no importance matrix is given):
make_gguf.py's --check-c mode compares both against ggml built from source.

Blocks are handled many at a time (numpy rows); inside a block the loops
that accumulate run element by element, because float32 addition is not
associative. quantize(type, rows) takes a float32 array (rows x n, n a
multiple of the block size) and returns the row bytes; dequantize(type,
data, n) gives back float32 rows.
"""
import numpy as np

F32 = np.float32
QK_K = 256
GROUP_MAX_EPS = F32(1e-15)

# name: (ggml_type id, elements per block, bytes per block)
TYPES = {
    "F32": (0, 1, 4), "F16": (1, 1, 2), "Q4_0": (2, 32, 18), "Q4_1": (3, 32, 20),
    "Q5_0": (6, 32, 22), "Q5_1": (7, 32, 24), "Q8_0": (8, 32, 34), "Q2_K": (10, 256, 84),
    "Q3_K": (11, 256, 110), "Q4_K": (12, 256, 144), "Q5_K": (13, 256, 176), "Q6_K": (14, 256, 210),
    "BF16": (30, 1, 2),
}
TYPE_NAMES = {v[0]: k for k, v in TYPES.items()}


def row_bytes(name, n):
    _, block, size = TYPES[name]
    assert n % block == 0, f"{name}: a row of {n} is not a whole number of {block}-element blocks"
    return n // block * size


# ---------------------------------------------------------------- helpers


def f32(a):
    return np.asarray(a, dtype=F32)


def nearest_int(v):
    """ggml's nearest_int: round half to even (the 12582912 trick), as int32."""
    return np.rint(f32(v)).astype(np.int32)


def to_f16(a):
    return f32(a).astype(np.float16)  # round to nearest even, as GGML_FP32_TO_FP16


def f16_bits(a):
    return to_f16(a).view(np.uint16)


def from_f16_bits(bits):
    return np.asarray(bits, dtype=np.uint16).view(np.float16).astype(F32)


def c_roundf(v):
    """C roundf: half away from zero."""
    v = f32(v)
    t = np.trunc(v)
    return np.where(np.abs(v - t) >= F32(0.5), t + np.sign(v), t)


def le_u16(b, off):
    return b[:, off].astype(np.uint16) | (b[:, off + 1].astype(np.uint16) << 8)


def put_u16(out, off, bits):
    out[:, off] = bits & 0xFF
    out[:, off + 1] = bits >> 8


def blocks_of(x, block):
    x = f32(x)
    assert x.shape[-1] % block == 0
    return x.reshape(-1, block)


# ---------------------------------------------------------------- 32-element blocks


def quantize_q8_0(x):
    x = blocks_of(x, 32)
    amax = np.zeros(len(x), F32)
    for j in range(32):
        amax = np.maximum(amax, np.abs(x[:, j]))
    d = amax / F32(127)
    inv = np.where(d != 0, F32(1) / np.where(d != 0, d, F32(1)), F32(0)).astype(F32)
    out = np.zeros((len(x), 34), np.uint8)
    put_u16(out, 0, f16_bits(d))
    out[:, 2:] = c_roundf(x * inv[:, None]).astype(np.int8).view(np.uint8)
    return out


def _absmax_signed(x):
    """The value of largest magnitude, first one on ties (the C loop's strict >)."""
    amax = np.zeros(len(x), F32)
    mx = np.zeros(len(x), F32)
    for j in range(x.shape[1]):
        v = x[:, j]
        bigger = amax < np.abs(v)
        amax = np.where(bigger, np.abs(v), amax)
        mx = np.where(bigger, v, mx)
    return amax, mx


def _min_max(x):
    lo = np.full(len(x), np.finfo(F32).max, F32)
    hi = np.full(len(x), -np.finfo(F32).max, F32)
    for j in range(x.shape[1]):
        lo = np.where(x[:, j] < lo, x[:, j], lo)
        hi = np.where(x[:, j] > hi, x[:, j], hi)
    return lo, hi


def _inverse(d):
    return np.where(d != 0, F32(1) / np.where(d != 0, d, F32(1)), F32(0)).astype(F32)


def quantize_q4_0(x):
    x = blocks_of(x, 32)
    _, mx = _absmax_signed(x)
    d = mx / F32(-8)
    inv = _inverse(d)
    q = np.minimum(15, np.trunc(x * inv[:, None] + F32(8.5)).astype(np.int8)).astype(np.uint8)
    out = np.zeros((len(x), 18), np.uint8)
    put_u16(out, 0, f16_bits(d))
    out[:, 2:] = q[:, :16] | (q[:, 16:] << 4)
    return out


def quantize_q4_1(x):
    x = blocks_of(x, 32)
    lo, hi = _min_max(x)
    d = (hi - lo) / F32(15)
    inv = _inverse(d)
    q = np.minimum(15, np.trunc((x - lo[:, None]) * inv[:, None] + F32(0.5)).astype(np.int8)).astype(np.uint8)
    out = np.zeros((len(x), 20), np.uint8)
    put_u16(out, 0, f16_bits(d))
    put_u16(out, 2, f16_bits(lo))
    out[:, 4:] = q[:, :16] | (q[:, 16:] << 4)
    return out


def _pack5(q):
    qs = (q[:, :16] & 0x0F) | ((q[:, 16:] & 0x0F) << 4)
    bits = ((q >> 4) & 1).astype(np.uint32) << np.arange(32, dtype=np.uint32)
    qh = np.bitwise_or.reduce(bits, axis=1).astype("<u4")
    return qs.astype(np.uint8), qh.view(np.uint8).reshape(-1, 4)


def quantize_q5_0(x):
    x = blocks_of(x, 32)
    _, mx = _absmax_signed(x)
    d = mx / F32(-16)
    inv = _inverse(d)
    q = np.minimum(31, np.trunc(x * inv[:, None] + F32(16.5)).astype(np.int8)).astype(np.uint8)
    out = np.zeros((len(x), 22), np.uint8)
    put_u16(out, 0, f16_bits(d))
    qs, qh = _pack5(q)
    out[:, 2:6], out[:, 6:] = qh, qs
    return out


def quantize_q5_1(x):
    x = blocks_of(x, 32)
    lo, hi = _min_max(x)
    d = (hi - lo) / F32(31)
    inv = _inverse(d)
    q = np.trunc((x - lo[:, None]) * inv[:, None] + F32(0.5)).astype(np.int32).astype(np.uint8)
    out = np.zeros((len(x), 24), np.uint8)
    put_u16(out, 0, f16_bits(d))
    put_u16(out, 2, f16_bits(lo))
    qs, qh = _pack5(q)
    out[:, 4:8], out[:, 8:] = qh, qs
    return out


def _nibbles(qs):
    return np.concatenate([qs & 0x0F, qs >> 4], axis=1).astype(np.int32)


def dequantize_q4_0(b):
    d = from_f16_bits(le_u16(b, 0))[:, None]
    return f32(_nibbles(b[:, 2:18]) - 8) * d


def dequantize_q4_1(b):
    d, m = from_f16_bits(le_u16(b, 0))[:, None], from_f16_bits(le_u16(b, 2))[:, None]
    return f32(_nibbles(b[:, 4:20])) * d + m


def _fifth_bit(qh):
    word = qh.copy().view("<u4").astype(np.uint32)
    return ((word >> np.arange(32, dtype=np.uint32)) & 1).astype(np.int32)


def dequantize_q5_0(b):
    d = from_f16_bits(le_u16(b, 0))[:, None]
    q = _nibbles(b[:, 6:22]) | (_fifth_bit(b[:, 2:6]) << 4)
    return f32(q - 16) * d


def dequantize_q5_1(b):
    d, m = from_f16_bits(le_u16(b, 0))[:, None], from_f16_bits(le_u16(b, 2))[:, None]
    q = _nibbles(b[:, 8:24]) | (_fifth_bit(b[:, 4:8]) << 4)
    return f32(q) * d + m


def dequantize_q8_0(b):
    d = from_f16_bits(le_u16(b, 0))[:, None]
    return f32(b[:, 2:34].view(np.int8)) * d


# ---------------------------------------------------------------- K-quant helpers (rows = sub-blocks)


def make_qx_quants(x, nmax, rmse_type):
    """Q6_K's scale search (rmse_type 1, no quant weights). x: rows x n."""
    rows, n = x.shape
    amax, mx = _absmax_signed(x)
    zero = amax < GROUP_MAX_EPS
    safe = np.where(zero, F32(1), mx)
    L = np.zeros((rows, n), np.int32)
    iscale = F32(-nmax) / safe
    assert rmse_type == 1
    w = x * x

    def pass_(isc):
        l = np.clip(nearest_int(isc[:, None] * x), -nmax, nmax - 1)
        sumlx = np.zeros(rows, F32)
        suml2 = np.zeros(rows, F32)
        for i in range(n):
            li = f32(l[:, i])
            sumlx = sumlx + w[:, i] * x[:, i] * li
            suml2 = suml2 + w[:, i] * li * li
        return l, sumlx, suml2

    l, sumlx, suml2 = pass_(iscale)
    L = l + nmax
    scale = np.where(suml2 != 0, sumlx / np.where(suml2 != 0, suml2, F32(1)), F32(0)).astype(F32)
    best = scale * sumlx
    for is_ in range(-9, 10):
        if is_ == 0:
            continue
        isc = -(F32(nmax) + F32(0.1) * F32(is_)) / safe
        l, sumlx, suml2 = pass_(isc)
        take = (suml2 > 0) & (sumlx * sumlx > best * suml2)
        L = np.where(take[:, None], l + nmax, L)
        new_scale = np.where(take, sumlx / np.where(suml2 != 0, suml2, F32(1)), scale).astype(F32)
        best = np.where(take, new_scale * sumlx, best)
        scale = new_scale
    scale = np.where(zero, F32(0), scale)
    L = np.where(zero[:, None], 0, L)
    return scale.astype(F32), L


def make_q3_quants(x, nmax):
    """Q3_K's scale search with do_rmse true."""
    rows, n = x.shape
    amax, mx = _absmax_signed(x)
    zero = amax < GROUP_MAX_EPS
    safe = np.where(zero, F32(1), mx)
    iscale = F32(-nmax) / safe
    L = np.clip(nearest_int(iscale[:, None] * x), -nmax, nmax - 1)
    w = x * x
    sumlx = np.zeros(rows, F32)
    suml2 = np.zeros(rows, F32)
    for i in range(n):
        li = f32(L[:, i])
        sumlx = sumlx + w[:, i] * x[:, i] * li
        suml2 = suml2 + w[:, i] * li * li
    active = ~zero
    for _ in range(5):
        changed = np.zeros(rows, bool)
        for i in range(n):
            wi, xi, li = w[:, i], x[:, i], f32(L[:, i])
            slx = sumlx - wi * xi * li
            ok = active & (slx > 0)
            sl2 = suml2 - wi * li * li
            new_l = np.clip(nearest_int(xi * sl2 / np.where(ok, slx, F32(1))), -nmax, nmax - 1)
            ok &= new_l != L[:, i]
            nl = f32(new_l)
            slx2 = slx + wi * xi * nl
            sl22 = sl2 + wi * nl * nl
            ok &= (sl22 > 0) & (slx2 * slx2 * suml2 > sumlx * sumlx * sl22)
            L[:, i] = np.where(ok, new_l, L[:, i])
            sumlx = np.where(ok, slx2, sumlx)
            suml2 = np.where(ok, sl22, suml2)
            changed |= ok
        active &= changed
        if not active.any():
            break
    L = L + nmax
    scale = np.where(suml2 > 0, sumlx / np.where(suml2 > 0, suml2, F32(1)), F32(0)).astype(F32)
    L = np.where(zero[:, None], 0, L)
    scale = np.where(zero, F32(0), scale)
    return scale, L


def make_qkx2_quants(x, weights, nmax, rmin, rdelta, nstep, use_mad):
    """Scale and min search of Q2_K, Q4_K and Q5_K. Returns scale, the_min (= -min), L."""
    rows, n = x.shape
    lo = x[:, 0].copy()
    hi = x[:, 0].copy()
    sum_w = weights[:, 0].copy()
    sum_x = sum_w * x[:, 0]
    for i in range(1, n):
        lo = np.where(x[:, i] < lo, x[:, i], lo)
        hi = np.where(x[:, i] > hi, x[:, i], hi)
        sum_w = sum_w + weights[:, i]
        sum_x = sum_x + weights[:, i] * x[:, i]
    lo = np.minimum(lo, F32(0))
    flat = hi == lo
    span = np.where(flat, F32(1), hi - lo)
    iscale = F32(nmax) / span
    scale = F32(1) / iscale
    L = np.clip(nearest_int(iscale[:, None] * (x - lo[:, None])), 0, nmax)

    def error(s, m, q):
        e = np.zeros(rows, F32)
        for i in range(n):
            diff = s * f32(q[:, i]) + m - x[:, i]
            diff = np.abs(diff) if use_mad else diff * diff
            e = e + weights[:, i] * diff
        return e

    best = error(scale, lo, L)
    mn = lo.copy()
    for is_ in range(nstep + 1):
        # min moves with each better fit, and the next step's grid follows it (as in C)
        cur_span = np.where(flat, F32(1), hi - mn)
        isc = (F32(rmin) + F32(rdelta) * F32(is_) + F32(nmax)) / cur_span
        laux = np.clip(nearest_int(isc[:, None] * (x - mn[:, None])), 0, nmax)
        sum_l = np.zeros(rows, F32)
        sum_l2 = np.zeros(rows, F32)
        sum_xl = np.zeros(rows, F32)
        for i in range(n):
            w, l = weights[:, i], f32(laux[:, i])
            sum_l = sum_l + w * l
            sum_l2 = sum_l2 + w * l * l
            sum_xl = sum_xl + w * l * x[:, i]
        D = sum_w * sum_l2 - sum_l * sum_l
        pos = D > 0
        Ds = np.where(pos, D, F32(1))
        this_scale = (sum_w * sum_xl - sum_x * sum_l) / Ds
        this_min = (sum_l2 * sum_x - sum_l * sum_xl) / Ds
        clip = this_min > 0
        this_min = np.where(clip, F32(0), this_min)
        this_scale = np.where(clip, sum_xl / np.where(sum_l2 != 0, sum_l2, F32(1)), this_scale).astype(F32)
        cur = error(this_scale, this_min, laux)
        take = pos & (cur < best) & ~flat
        L = np.where(take[:, None], laux, L)
        best = np.where(take, cur, best)
        scale = np.where(take, this_scale, scale)
        mn = np.where(take, this_min, mn)
    scale = np.where(flat, F32(0), scale).astype(F32)
    L = np.where(flat[:, None], 0, L)
    return scale, (-mn).astype(F32), L


def get_scale_min_k4(q):
    """q: blocks x 12 scale bytes -> (scales, mins), each blocks x 8."""
    q = q.astype(np.int32)
    sc = np.empty((len(q), 8), np.int32)
    mn = np.empty((len(q), 8), np.int32)
    for j in range(4):
        sc[:, j] = q[:, j] & 63
        mn[:, j] = q[:, j + 4] & 63
    for j in range(4, 8):
        sc[:, j] = (q[:, j + 4] & 0xF) | ((q[:, j - 4] >> 6) << 4)
        mn[:, j] = (q[:, j + 4] >> 4) | ((q[:, j] >> 6) << 4)
    return sc, mn


def pack_scale_min_k4(ls, lm):
    out = np.zeros((len(ls), 12), np.int32)
    for j in range(8):
        if j < 4:
            out[:, j] = ls[:, j]
            out[:, j + 4] = lm[:, j]
        else:
            out[:, j + 4] = (ls[:, j] & 0xF) | ((lm[:, j] & 0xF) << 4)
            out[:, j - 4] |= (ls[:, j] >> 4) << 6
            out[:, j] |= (lm[:, j] >> 4) << 6
    return out.astype(np.uint8)


# ---------------------------------------------------------------- K-quant quantisers


def _second_pass(x, d_all, dmin_all, sc, mn, L, sub, nmax):
    """Requantise each sub-block against its rounded scale: l = nearest_int((x + dm) / d)."""
    for j in range(sc.shape[1]):
        d = d_all * f32(sc[:, j])
        dm = dmin_all * f32(mn[:, j])
        xs = x[:, j * sub:(j + 1) * sub]
        ok = d != 0
        l = np.clip(nearest_int((xs + dm[:, None]) / np.where(ok, d, F32(1))[:, None]), 0, nmax)
        L[:, j * sub:(j + 1) * sub] = np.where(ok[:, None], l, L[:, j * sub:(j + 1) * sub])
    return L


def _qkx_scales(x, sub, nmax, rmin, rdelta, nstep, weights_fn, use_mad):
    nb = len(x)
    xs = x.reshape(nb * (QK_K // sub), sub)
    scales, mins, L = make_qkx2_quants(xs, weights_fn(xs), nmax, rmin, rdelta, nstep, use_mad)
    return scales.reshape(nb, -1), mins.reshape(nb, -1), L.reshape(nb, QK_K)


def _column_max(a):
    m = np.zeros(len(a), F32)
    for j in range(a.shape[1]):
        m = np.where(a[:, j] > m, a[:, j], m)
    return m


def quantize_q2_k(x):
    x = blocks_of(x, QK_K)
    nb = len(x)
    scales, mins, L = _qkx_scales(x, 16, 3, -0.5, 0.1, 15, np.abs, True)
    max_scale, max_min = _column_max(scales), _column_max(mins)
    sc = np.zeros((nb, 16), np.int32)
    has = max_scale > 0
    isc = F32(15) / np.where(has, max_scale, F32(1))
    sc = np.where(has[:, None], nearest_int(isc[:, None] * scales), 0)
    d = np.where(has, max_scale / F32(15), F32(0))
    hasm = max_min > 0
    imn = F32(15) / np.where(hasm, max_min, F32(1))
    mn = np.where(hasm[:, None], nearest_int(imn[:, None] * mins), 0)
    dmin = np.where(hasm, max_min / F32(15), F32(0))
    packed = (sc | (mn << 4)).astype(np.uint8)
    dq, dmq = to_f16(d).astype(F32), to_f16(dmin).astype(F32)
    L = _second_pass(x, dq, dmq, packed.astype(np.int32) & 0xF, packed.astype(np.int32) >> 4, L, 16, 3)
    out = np.zeros((nb, 84), np.uint8)
    out[:, 0:16] = packed
    for j in range(0, QK_K, 128):
        for l in range(32):
            out[:, 16 + j // 4 + l] = L[:, j + l] | (L[:, j + l + 32] << 2) | (L[:, j + l + 64] << 4) | (L[:, j + l + 96] << 6)
    put_u16(out, 80, f16_bits(d))
    put_u16(out, 82, f16_bits(dmin))
    return out


def quantize_q3_k(x):
    x = blocks_of(x, QK_K)
    nb = len(x)
    s, L = make_q3_quants(x.reshape(nb * 16, 16), 4)
    scales, L = s.reshape(nb, 16), L.reshape(nb, QK_K)
    amax = np.zeros(nb, F32)
    max_scale = np.zeros(nb, F32)
    for j in range(16):
        bigger = np.abs(scales[:, j]) > amax
        amax = np.where(bigger, np.abs(scales[:, j]), amax)
        max_scale = np.where(bigger, scales[:, j], max_scale)
    has = max_scale != 0
    iscale = F32(-32) / np.where(has, max_scale, F32(1))
    sb = np.zeros((nb, 12), np.int32)
    l6 = np.clip(nearest_int(iscale[:, None] * scales).astype(np.int8).astype(np.int32), -32, 31) + 32
    for j in range(16):
        lj = np.where(has, l6[:, j], 0)
        if j < 8:
            sb[:, j] = lj & 0xF
        else:
            sb[:, j - 8] |= (lj & 0xF) << 4
        sb[:, j % 4 + 8] |= (lj >> 4) << (2 * (j // 4))
    d = np.where(has, F32(1) / iscale, F32(0)).astype(F32)
    dq = to_f16(d).astype(F32)
    for j in range(16):
        low = sb[:, j] & 0xF if j < 8 else sb[:, j - 8] >> 4
        sc = (low | (((sb[:, 8 + j % 4] >> (2 * (j // 4))) & 3) << 4)) - 32
        dd = dq * f32(sc)
        ok = dd != 0
        xs = x[:, 16 * j:16 * j + 16]
        l = np.clip(nearest_int(xs / np.where(ok, dd, F32(1))[:, None]), -4, 3) + 4
        L[:, 16 * j:16 * j + 16] = np.where(ok[:, None], l, L[:, 16 * j:16 * j + 16])
    out = np.zeros((nb, 110), np.uint8)
    hmask = np.zeros((nb, 32), np.int32)
    for j in range(QK_K):
        high = L[:, j] > 3
        hmask[:, j % 32] |= np.where(high, 1 << (j // 32), 0)
        L[:, j] = np.where(high, L[:, j] - 4, L[:, j])
    out[:, 0:32] = hmask
    for j in range(0, QK_K, 128):
        for l in range(32):
            out[:, 32 + j // 4 + l] = L[:, j + l] | (L[:, j + l + 32] << 2) | (L[:, j + l + 64] << 4) | (L[:, j + l + 96] << 6)
    out[:, 96:108] = sb
    put_u16(out, 108, f16_bits(d))
    return out


def _qkx_weights(xs):
    sum_x2 = np.zeros(len(xs), F32)
    for l in range(xs.shape[1]):
        sum_x2 = sum_x2 + xs[:, l] * xs[:, l]
    av_x = np.sqrt(sum_x2 / F32(32)).astype(F32)
    return av_x[:, None] + np.abs(xs)


def _q45_k_scales(x, nmax, rmin, nstep):
    nb = len(x)
    scales, mins, L = _qkx_scales(x, 32, nmax, rmin, 0.1, nstep, _qkx_weights, False)
    max_scale, max_min = _column_max(scales), _column_max(mins)
    inv_s = np.where(max_scale > 0, F32(63) / np.where(max_scale > 0, max_scale, F32(1)), F32(0)).astype(F32)
    inv_m = np.where(max_min > 0, F32(63) / np.where(max_min > 0, max_min, F32(1)), F32(0)).astype(F32)
    ls = np.minimum(63, nearest_int(inv_s[:, None] * scales).astype(np.uint8)).astype(np.int32)
    lm = np.minimum(63, nearest_int(inv_m[:, None] * mins).astype(np.uint8)).astype(np.int32)
    packed = pack_scale_min_k4(ls, lm)
    d, dmin = max_scale / F32(63), max_min / F32(63)
    sc, mn = get_scale_min_k4(packed)
    L = _second_pass(x, to_f16(d).astype(F32), to_f16(dmin).astype(F32), sc, mn, L, 32, nmax)
    return packed, d, dmin, L


def quantize_q4_k(x):
    x = blocks_of(x, QK_K)
    packed, d, dmin, L = _q45_k_scales(x, 15, -1.0, 20)
    out = np.zeros((len(x), 144), np.uint8)
    put_u16(out, 0, f16_bits(d))
    put_u16(out, 2, f16_bits(dmin))
    out[:, 4:16] = packed
    for g in range(4):
        out[:, 16 + 32 * g:48 + 32 * g] = L[:, 64 * g:64 * g + 32] | (L[:, 64 * g + 32:64 * g + 64] << 4)
    return out


def quantize_q5_k(x):
    x = blocks_of(x, QK_K)
    packed, d, dmin, L = _q45_k_scales(x, 31, -0.5, 15)
    out = np.zeros((len(x), 176), np.uint8)
    put_u16(out, 0, f16_bits(d))
    put_u16(out, 2, f16_bits(dmin))
    out[:, 4:16] = packed
    qh = np.zeros((len(x), 32), np.int32)
    for g in range(4):
        lo, hi = L[:, 64 * g:64 * g + 32], L[:, 64 * g + 32:64 * g + 64]
        qh |= ((lo > 15).astype(np.int32) << (2 * g)) | ((hi > 15).astype(np.int32) << (2 * g + 1))
        out[:, 48 + 32 * g:80 + 32 * g] = (lo & 0xF) | ((hi & 0xF) << 4)
    out[:, 16:48] = qh
    return out


def quantize_q6_k(x):
    x = blocks_of(x, QK_K)
    nb = len(x)
    s, L = make_qx_quants(x.reshape(nb * 16, 16), 32, 1)
    scales, L = s.reshape(nb, 16), L.reshape(nb, QK_K)
    max_abs = np.zeros(nb, F32)
    max_scale = np.zeros(nb, F32)
    for j in range(16):
        bigger = np.abs(scales[:, j]) > max_abs
        max_abs = np.where(bigger, np.abs(scales[:, j]), max_abs)
        max_scale = np.where(bigger, scales[:, j], max_scale)
    zero = max_abs < GROUP_MAX_EPS
    iscale = F32(-128) / np.where(zero, F32(1), max_scale)
    d = F32(1) / iscale
    sc = np.minimum(127, nearest_int(iscale[:, None] * scales)).astype(np.int8)
    dq = to_f16(d).astype(F32)
    for j in range(16):
        dd = dq * f32(sc[:, j])
        ok = dd != 0
        xs = x[:, 16 * j:16 * j + 16]
        l = np.clip(nearest_int(xs / np.where(ok, dd, F32(1))[:, None]), -32, 31) + 32
        L[:, 16 * j:16 * j + 16] = np.where(ok[:, None], l, L[:, 16 * j:16 * j + 16])
    out = np.zeros((nb, 210), np.uint8)
    for h in range(2):
        j = 128 * h
        for l in range(32):
            q1, q2, q3, q4 = (L[:, j + l + 32 * t] for t in range(4))
            out[:, 64 * h + l] = (q1 & 0xF) | ((q3 & 0xF) << 4)
            out[:, 64 * h + l + 32] = (q2 & 0xF) | ((q4 & 0xF) << 4)
            out[:, 128 + 32 * h + l] = (q1 >> 4) | ((q2 >> 4) << 2) | ((q3 >> 4) << 4) | ((q4 >> 4) << 6)
    out[:, 192:208] = sc.view(np.uint8)
    put_u16(out, 208, f16_bits(d))
    out[zero] = 0
    return out


# ---------------------------------------------------------------- K-quant dequantisers


def dequantize_q2_k(b):
    d, mn = from_f16_bits(le_u16(b, 80)), from_f16_bits(le_u16(b, 82))
    y = np.empty((len(b), QK_K), F32)
    for e in range(QK_K):
        h, j, s, l = e // 128, (e % 128) // 32, (e % 32) // 16, e % 16
        sc = b[:, 8 * h + 2 * j + s].astype(np.int32)
        q = (b[:, 16 + 32 * h + 16 * s + l].astype(np.int32) >> (2 * j)) & 3
        dl, ml = d * f32(sc & 0xF), mn * f32(sc >> 4)
        y[:, e] = dl * f32(q) - ml
    return y


def q3_k_scales(sb):
    """The sixteen 6-bit scales of Q3_K minus 32."""
    sb = sb.astype(np.int32)
    out = np.empty((len(sb), 16), np.int32)
    for k in range(16):
        low = sb[:, k] & 0xF if k < 8 else sb[:, k - 8] >> 4
        out[:, k] = (low | (((sb[:, 8 + k % 4] >> (2 * (k // 4))) & 3) << 4)) - 32
    return out


def dequantize_q3_k(b):
    d = from_f16_bits(le_u16(b, 108))
    sc = q3_k_scales(b[:, 96:108])
    y = np.empty((len(b), QK_K), F32)
    for e in range(QK_K):
        h, j, s, l = e // 128, (e % 128) // 32, (e % 32) // 16, e % 16
        q2 = (b[:, 32 + 32 * h + 16 * s + l].astype(np.int32) >> (2 * j)) & 3
        hb = (b[:, 16 * s + l].astype(np.int32) >> (4 * h + j)) & 1
        dl = d * f32(sc[:, e // 16])
        y[:, e] = dl * f32(q2 - np.where(hb == 1, 0, 4))
    return y


def dequantize_q4_k(b):
    d, mn = from_f16_bits(le_u16(b, 0)), from_f16_bits(le_u16(b, 2))
    sc, m = get_scale_min_k4(b[:, 4:16])
    y = np.empty((len(b), QK_K), F32)
    for e in range(QK_K):
        g, half, l = e // 64, (e % 64) // 32, e % 32
        j = 2 * g + half
        q = (b[:, 16 + 32 * g + l].astype(np.int32) >> (4 * half)) & 0xF
        y[:, e] = (d * f32(sc[:, j])) * f32(q) - mn * f32(m[:, j])
    return y


def dequantize_q5_k(b):
    d, mn = from_f16_bits(le_u16(b, 0)), from_f16_bits(le_u16(b, 2))
    sc, m = get_scale_min_k4(b[:, 4:16])
    y = np.empty((len(b), QK_K), F32)
    for e in range(QK_K):
        g, half, l = e // 64, (e % 64) // 32, e % 32
        j = 2 * g + half
        q = (b[:, 48 + 32 * g + l].astype(np.int32) >> (4 * half)) & 0xF
        q += ((b[:, 16 + l].astype(np.int32) >> j) & 1) * 16
        y[:, e] = (d * f32(sc[:, j])) * f32(q) - mn * f32(m[:, j])
    return y


def dequantize_q6_k(b):
    d = from_f16_bits(le_u16(b, 208))
    sc = b[:, 192:208].view(np.int8).astype(np.int32)
    y = np.empty((len(b), QK_K), F32)
    for e in range(QK_K):
        h, t, l = e // 128, (e % 128) // 32, e % 32
        lo = (b[:, 64 * h + 32 * (t & 1) + l].astype(np.int32) >> (4 * (t >> 1))) & 0xF
        hi = (b[:, 128 + 32 * h + l].astype(np.int32) >> (2 * t)) & 3
        q = (lo | (hi << 4)) - 32
        y[:, e] = (d * f32(sc[:, e // 16])) * f32(q)
    return y


# ---------------------------------------------------------------- dispatch

QUANTIZE = {"Q8_0": quantize_q8_0, "Q4_0": quantize_q4_0, "Q4_1": quantize_q4_1, "Q5_0": quantize_q5_0,
            "Q5_1": quantize_q5_1, "Q2_K": quantize_q2_k, "Q3_K": quantize_q3_k, "Q4_K": quantize_q4_k,
            "Q5_K": quantize_q5_k, "Q6_K": quantize_q6_k}
DEQUANTIZE = {"Q8_0": dequantize_q8_0, "Q4_0": dequantize_q4_0, "Q4_1": dequantize_q4_1,
              "Q5_0": dequantize_q5_0, "Q5_1": dequantize_q5_1, "Q2_K": dequantize_q2_k,
              "Q3_K": dequantize_q3_k, "Q4_K": dequantize_q4_k, "Q5_K": dequantize_q5_k,
              "Q6_K": dequantize_q6_k}


def bf16_bits(a):
    """float32 -> bfloat16 bits, round to nearest even (as ggml_compute_fp32_to_bf16 for finite values)."""
    bits = f32(a).view(np.uint32).astype(np.uint64)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)


def quantize(name, x):
    """Rows of float32 -> bytes of the given type (2-D array rows x row_bytes)."""
    x = f32(x)
    rows, n = x.reshape(-1, x.shape[-1]).shape
    if name == "F32":
        return x.reshape(rows, n).astype("<f4").view(np.uint8)
    if name == "F16":
        return x.reshape(rows, n).astype("<f2").view(np.uint8)
    if name == "BF16":
        return bf16_bits(x.reshape(rows, n)).astype("<u2").view(np.uint8)
    blocks = QUANTIZE[name](x.reshape(rows, n))
    return blocks.reshape(rows, row_bytes(name, n))


def dequantize(name, data, n):
    """Row bytes (rows x row_bytes, uint8) -> float32 rows x n."""
    data = np.asarray(data, np.uint8).reshape(-1, row_bytes(name, n))
    if name == "F32":
        return data.copy().view("<f4").astype(F32)
    if name == "F16":
        return data.copy().view("<f2").astype(F32)
    if name == "BF16":
        return (data.copy().view("<u2").astype(np.uint32) << 16).view(F32)
    _, block, size = TYPES[name]
    y = DEQUANTIZE[name](data.reshape(-1, size))
    return y.reshape(len(data), n)
