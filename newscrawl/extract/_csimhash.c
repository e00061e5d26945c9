/* The 64-bit SimHash of newscrawl/storage/dedup.py in C (``python_simhash`` there is the reference; the
 * tests hold the two equal to the last bit: stored fingerprints depend on every bit).
 *
 * tokens: one CJK character (the ranges of dedup._CJK), or a run of characters that are alphanumeric
 * (Py_UNICODE_ISALNUM, the \w of Python's re less '_') and not CJK; anything else separates tokens.
 * shingles: the distinct ``size``-grams of the tokens joined by one space (all tokens joined when there are
 * fewer than ``size``); distinct by their bytes: the shingles are sorted by hash, then by length and bytes,
 * so two shingles whose 64-bit hashes collide still count twice. hash: BLAKE2b (RFC 7693, written here
 * from the RFC; hashlib is the oracle in the tests), unkeyed, digest size 8, of the shingle's UTF-8, read
 * big-endian. Bit i of the result is 1 when more than half of the distinct shingles have bit i set.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* --- BLAKE2b, RFC 7693 -------------------------------------------------------------------------------- */

static const uint64_t blake2b_iv[8] = {
    0x6A09E667F3BCC908ULL, 0xBB67AE8584CAA73BULL, 0x3C6EF372FE94F82BULL, 0xA54FF53A5F1D36F1ULL,
    0x510E527FADE682D1ULL, 0x9B05688C2B3E6C1FULL, 0x1F83D9ABFB41BD6BULL, 0x5BE0CD19137E2179ULL,
};

/* the message word permutations of RFC 7693 section 2.7; rounds 10 and 11 use rows 0 and 1 again */
static const uint8_t blake2b_sigma[12][16] = {
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
    {11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4},
    {7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8},
    {9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13},
    {2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9},
    {12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11},
    {13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10},
    {6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5},
    {10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0},
    {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15},
    {14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3},
};

#define BLAKE2B_BLOCK 128
#define DIGEST_BYTES 8

static inline uint64_t
rotr64(uint64_t x, unsigned int n)
{
    return (x >> n) | (x << (64 - n));
}

/* a message word: 8 bytes read little-endian (whatever the machine's byte order) */
static inline uint64_t
load64_le(const uint8_t *p)
{
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24 |
           (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}

#define G(a, b, c, d, x, y)                \
    do {                                   \
        v[a] = v[a] + v[b] + (x);          \
        v[d] = rotr64(v[d] ^ v[a], 32);    \
        v[c] = v[c] + v[d];                \
        v[b] = rotr64(v[b] ^ v[c], 24);    \
        v[a] = v[a] + v[b] + (y);          \
        v[d] = rotr64(v[d] ^ v[a], 16);    \
        v[c] = v[c] + v[d];                \
        v[b] = rotr64(v[b] ^ v[c], 63);    \
    } while (0)

/* the compression function F: ``m`` the block's 16 words, ``count`` the bytes hashed so far (this block's
 * included; below 2**64, so the counter's high word stays 0), ``last`` whether it is the final block */
static void
blake2b_compress(uint64_t h[8], const uint64_t m[16], uint64_t count, int last)
{
    uint64_t v[16];
    for (int i = 0; i < 8; i++) {
        v[i] = h[i];
        v[i + 8] = blake2b_iv[i];
    }
    v[12] ^= count;
    if (last)
        v[14] = ~v[14];
    /* unrolled, the permutation's indices are constants: the words stay in registers (98 against 125 ns
     * a one-block digest) */
#pragma GCC unroll 12
    for (int r = 0; r < 12; r++) {
        const uint8_t *s = blake2b_sigma[r];
        G(0, 4, 8, 12, m[s[0]], m[s[1]]);
        G(1, 5, 9, 13, m[s[2]], m[s[3]]);
        G(2, 6, 10, 14, m[s[4]], m[s[5]]);
        G(3, 7, 11, 15, m[s[6]], m[s[7]]);
        G(0, 5, 10, 15, m[s[8]], m[s[9]]);
        G(1, 6, 11, 12, m[s[10]], m[s[11]]);
        G(2, 7, 8, 13, m[s[12]], m[s[13]]);
        G(3, 4, 9, 14, m[s[14]], m[s[15]]);
    }
    for (int i = 0; i < 8; i++)
        h[i] ^= v[i] ^ v[i + 8];
}

/* the unkeyed 8-byte BLAKE2b digest of ``data``, read big-endian (dedup.shingle_hash) */
static uint64_t
blake2b_8(const uint8_t *data, size_t length)
{
    uint64_t h[8], m[16];
    memcpy(h, blake2b_iv, sizeof h);
    /* the parameter block: digest length 8, no key, fanout 1, depth 1 (RFC 7693 section 2.5) */
    h[0] ^= 0x01010000ULL ^ DIGEST_BYTES;
    uint64_t count = 0;
    while (length > BLAKE2B_BLOCK) { /* every block but the last (an empty message has one, of zeros) */
        for (int i = 0; i < 16; i++)
            m[i] = load64_le(data + 8 * i);
        count += BLAKE2B_BLOCK;
        blake2b_compress(h, m, count, 0);
        data += BLAKE2B_BLOCK;
        length -= BLAKE2B_BLOCK;
    }
    /* the last block padded with zeros, read word by word (no copy into a zeroed buffer) */
    size_t i = 0;
    for (; i < length / 8; i++)
        m[i] = load64_le(data + 8 * i);
    if (i < 16) {
        uint64_t word = 0;
        for (size_t b = 0; b < length % 8; b++)
            word |= (uint64_t)data[8 * i + b] << (8 * b);
        m[i++] = word;
    }
    for (; i < 16; i++)
        m[i] = 0;
    blake2b_compress(h, m, count + length, 1);
    /* the digest is h[0]'s bytes little-endian: read big-endian, that is h[0] byte-swapped */
    uint64_t x = h[0], value = 0;
    for (int k = 0; k < 8; k++, x >>= 8)
        value = (value << 8) | (x & 0xFF);
    return value;
}

/* --- tokens ------------------------------------------------------------------------------------------- */

/* dedup._CJK: scripts written without spaces, each character a token (tests/storage/test_csimhash.py
 * compares every character of the Basic Multilingual Plane, where all of these lie, with the Python
 * tokens) */
static int
is_cjk(Py_UCS4 c)
{
    return (c >= 0x3040 && c <= 0x30FF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x4E00 && c <= 0x9FFF) ||
           (c >= 0xAC00 && c <= 0xD7AF) || (c >= 0xF900 && c <= 0xFAFF);
}

enum { SEPARATOR, WORD, CJK, UNTAKEN };

/* Latin-1's characters, classified once (module initialisation) */
static unsigned char latin1_class[256];

static inline int
char_class(Py_UCS4 c)
{
    if (c < 256)
        return latin1_class[c];
    if (is_cjk(c))
        return CJK;
    if (c >= 0xD800 && c <= 0xDFFF)
        return UNTAKEN; /* a lone surrogate: left to the Python code, whatever it makes of it */
    return Py_UNICODE_ISALNUM(c) ? WORD : SEPARATOR;
}

static inline size_t
put_utf8(uint8_t *out, Py_UCS4 c)
{
    if (c < 0x80) {
        out[0] = (uint8_t)c;
        return 1;
    }
    if (c < 0x800) {
        out[0] = (uint8_t)(0xC0 | (c >> 6));
        out[1] = (uint8_t)(0x80 | (c & 0x3F));
        return 2;
    }
    if (c < 0x10000) {
        out[0] = (uint8_t)(0xE0 | (c >> 12));
        out[1] = (uint8_t)(0x80 | ((c >> 6) & 0x3F));
        out[2] = (uint8_t)(0x80 | (c & 0x3F));
        return 3;
    }
    out[0] = (uint8_t)(0xF0 | (c >> 18));
    out[1] = (uint8_t)(0x80 | ((c >> 12) & 0x3F));
    out[2] = (uint8_t)(0x80 | ((c >> 6) & 0x3F));
    out[3] = (uint8_t)(0x80 | (c & 0x3F));
    return 4;
}

/* The tokens of ``text`` in UTF-8, joined by one space, into ``out`` (room for 4 bytes a character and
 * one space a token); ``starts[k]`` the offset of token k (room for one a character). The number of tokens,
 * or -1 when the text holds a character left to Python. */
static Py_ssize_t
tokenize(PyObject *text, uint8_t *out, size_t *starts, size_t *out_length)
{
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    Py_ssize_t length = PyUnicode_GET_LENGTH(text), tokens = 0;
    size_t at = 0;
    int in_word = 0;
    for (Py_ssize_t i = 0; i < length; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        int cls = char_class(c);
        if (cls == UNTAKEN)
            return -1;
        if (cls == SEPARATOR) {
            in_word = 0;
            continue;
        }
        if (!(cls == WORD && in_word)) { /* a new token: a CJK character, or a word's first character */
            if (tokens)
                out[at++] = ' ';
            starts[tokens++] = at;
        }
        in_word = cls == WORD;
        at += put_utf8(out + at, c);
    }
    *out_length = at;
    return tokens;
}

/* --- SimHash ------------------------------------------------------------------------------------------ */

typedef struct {
    uint64_t hash;
    const uint8_t *bytes;
    size_t length;
} Shingle;

/* by hash, then by length and bytes: equal shingles end up side by side within their run of equal hashes */
static int
shingle_order(const void *pa, const void *pb)
{
    const Shingle *a = pa, *b = pb;
    if (a->hash != b->hash)
        return a->hash < b->hash ? -1 : 1;
    if (a->length != b->length)
        return a->length < b->length ? -1 : 1;
    return memcmp(a->bytes, b->bytes, a->length);
}

/* ``n`` shingles in shingle_order by insertion (a short list, or a run of equal hashes: in practice the
 * copies of one shingle, which do not move) */
static void
insertion_sort(Shingle *a, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        Shingle item = a[i];
        size_t j = i;
        for (; j > 0 && shingle_order(&a[j - 1], &item) > 0; j--)
            a[j] = a[j - 1];
        a[j] = item;
    }
}

#define SHORT_LIST 32

/* ``a`` sorted in shingle_order, by hash a byte at a time (least significant first, each pass stable) and
 * then each run of equal hashes by length and bytes; ``spare`` has room for ``n``. The sorted list: ``a``
 * or ``spare``. (qsort through a comparison function was a third of the time spent outside BLAKE2b.) */
static Shingle *
sort_shingles(Shingle *a, Shingle *spare, size_t n)
{
    if (n < SHORT_LIST) {
        insertion_sort(a, n);
        return a;
    }
    size_t counts[8][256];
    memset(counts, 0, sizeof counts);
    for (size_t i = 0; i < n; i++)
        for (int d = 0; d < 8; d++)
            counts[d][(a[i].hash >> (8 * d)) & 0xFF]++;
    for (int d = 0; d < 8; d++) {
        size_t *count = counts[d];
        if (count[(a[0].hash >> (8 * d)) & 0xFF] == n)
            continue; /* every hash has the same byte here */
        size_t at = 0;
        for (int b = 0; b < 256; b++) {
            size_t here = count[b];
            count[b] = at;
            at += here;
        }
        for (size_t i = 0; i < n; i++)
            spare[count[(a[i].hash >> (8 * d)) & 0xFF]++] = a[i];
        Shingle *swap = a;
        a = spare;
        spare = swap;
    }
    for (size_t i = 0, run; i < n; i += run) {
        for (run = 1; i + run < n && a[i + run].hash == a[i].hash; run++)
            ;
        if (run <= SHORT_LIST)
            insertion_sort(a + i, run);
        else
            qsort(a + i, run, sizeof(Shingle), shingle_order);
    }
    return a;
}

/* each bit of a byte in its own byte: 8 counters side by side in a word (module initialisation) */
static uint64_t byte_bits[256];

static void
empty_lanes(uint64_t lanes[8], uint64_t counts[64])
{
    for (int b = 0; b < 64; b++)
        counts[b] += (lanes[b / 8] >> (8 * (b % 8))) & 0xFF;
    memset(lanes, 0, 8 * sizeof(uint64_t));
}

/* the majority of the distinct shingles' hash bits (``shingles`` sorted by shingle_order) */
static uint64_t
majority_bits(const Shingle *shingles, size_t n)
{
    /* bit 8j + k of the hashes counted in byte k of lanes[j], emptied into counts before a byte overflows */
    uint64_t lanes[8] = {0}, counts[64] = {0};
    size_t distinct = 0, in_lanes = 0;
    for (size_t i = 0; i < n; i++) {
        if (i && shingle_order(&shingles[i - 1], &shingles[i]) == 0)
            continue; /* the same bytes as the one before */
        distinct++;
        uint64_t h = shingles[i].hash;
        for (int j = 0; j < 8; j++)
            lanes[j] += byte_bits[(h >> (8 * j)) & 0xFF];
        if (++in_lanes == 255) {
            empty_lanes(lanes, counts);
            in_lanes = 0;
        }
    }
    empty_lanes(lanes, counts); /* the last shingle was a copy */
    uint64_t value = 0;
    for (int b = 0; b < 64; b++)
        if (2 * counts[b] > distinct)
            value |= (uint64_t)1 << b;
    return value;
}

static PyObject *
simhash(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "simhash() takes 2 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *text = args[0];
    if (!PyUnicode_Check(text)) {
        PyErr_Format(PyExc_TypeError, "simhash() argument 1 must be str, not %.100s", Py_TYPE(text)->tp_name);
        return NULL;
    }
    if (!PyLong_Check(args[1])) {
        PyErr_Format(PyExc_TypeError, "simhash() argument 2 must be int, not %.100s", Py_TYPE(args[1])->tp_name);
        return NULL;
    }
    int overflow;
    long long size = PyLong_AsLongLongAndOverflow(args[1], &overflow);
    if (size == -1 && PyErr_Occurred())
        return NULL;
    if (overflow)
        size = overflow > 0 ? LLONG_MAX : 0; /* more tokens than any text has, or none */
    Py_ssize_t length = PyUnicode_GET_LENGTH(text);
    if (size < 1 || length == 0)
        return PyLong_FromLong(0); /* the Python code's empty set of shingles */

    /* at most 4 bytes a character and one space between tokens (a token is at least one character) */
    int kind = PyUnicode_KIND(text);
    size_t per_char = kind == PyUnicode_1BYTE_KIND ? 2 : kind == PyUnicode_2BYTE_KIND ? 3 : 4;
    if ((size_t)length > SIZE_MAX / sizeof(Shingle)) /* the largest of the three arrays, a character */
        return PyErr_NoMemory();
    uint8_t *joined = PyMem_Malloc((size_t)length * (per_char + 1));
    size_t *starts = PyMem_Malloc((size_t)length * sizeof(size_t));
    Shingle *shingles = NULL;
    PyObject *result = NULL;
    if (joined == NULL || starts == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    size_t joined_length;
    Py_ssize_t tokens = tokenize(text, joined, starts, &joined_length);
    if (tokens < 0) {
        result = Py_NewRef(Py_None);
        goto done;
    }
    if (tokens == 0) {
        result = PyLong_FromLong(0);
        goto done;
    }
    size_t n = (size_t)tokens < (unsigned long long)size ? 1 : (size_t)tokens - (size_t)size + 1;
    size_t span = (size_t)tokens < (unsigned long long)size ? (size_t)tokens : (size_t)size;
    shingles = PyMem_Malloc(2 * n * sizeof(Shingle)); /* and the sort's spare room */
    if (shingles == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (size_t i = 0; i < n; i++) {
        size_t last = i + span - 1; /* the shingle ends where the token after its last one starts, less a space */
        size_t end = last + 1 < (size_t)tokens ? starts[last + 1] - 1 : joined_length;
        shingles[i].bytes = joined + starts[i];
        shingles[i].length = end - starts[i];
        shingles[i].hash = blake2b_8(shingles[i].bytes, shingles[i].length);
    }
    result = PyLong_FromUnsignedLongLong(majority_bits(sort_shingles(shingles, shingles + n, n), n));
done:
    PyMem_Free(joined);
    PyMem_Free(starts);
    PyMem_Free(shingles);
    return result;
}

static PyObject *
blake2b_8_py(PyObject *module, PyObject *arg)
{
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    uint64_t value = blake2b_8(view.buf, (size_t)view.len);
    PyBuffer_Release(&view);
    return PyLong_FromUnsignedLongLong(value);
}

/* --- search.index_form ----------------------------------------------------------------------------------
 * The text the full-text index is given (newscrawl/storage/search.py, index_form the Python reference):
 * every character of search.CJK_RANGES set apart as " c ", every other character as it is. */

static int
index_cjk(Py_UCS4 c)
{
    return (c >= 0x3040 && c <= 0x30FF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0x4E00 && c <= 0x9FFF) ||
           (c >= 0xF900 && c <= 0xFAFF);
}

static PyObject *
index_form(PyObject *module, PyObject *arg)
{
    if (!PyUnicode_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "index_form() takes a str, not %.100s", Py_TYPE(arg)->tp_name);
        return NULL;
    }
    if (PyUnicode_READY(arg) < 0)
        return NULL;
    Py_ssize_t n = PyUnicode_GET_LENGTH(arg);
    int kind = PyUnicode_KIND(arg);
    const void *data = PyUnicode_DATA(arg);
    Py_ssize_t count = 0;
    if (kind != PyUnicode_1BYTE_KIND) /* Latin-1 text holds no CJK character */
        for (Py_ssize_t i = 0; i < n; i++)
            count += index_cjk(PyUnicode_READ(kind, data, i));
    if (count == 0)
        return Py_NewRef(arg);
    /* the output holds the input's widest character (a CJK one at least), so it is as wide as the input */
    PyObject *out = PyUnicode_New(n + 2 * count, PyUnicode_MAX_CHAR_VALUE(arg));
    if (out == NULL)
        return NULL;
    int out_kind = PyUnicode_KIND(out);
    void *out_data = PyUnicode_DATA(out);
    Py_ssize_t j = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        if (index_cjk(c)) {
            PyUnicode_WRITE(out_kind, out_data, j++, ' ');
            PyUnicode_WRITE(out_kind, out_data, j++, c);
            PyUnicode_WRITE(out_kind, out_data, j++, ' ');
        }
        else
            PyUnicode_WRITE(out_kind, out_data, j++, c);
    }
    return out;
}

static PyMethodDef methods[] = {
    {"simhash", (PyCFunction)(void (*)(void))simhash, METH_FASTCALL,
     "simhash(lowered_text, size, /): dedup.simhash of a text already lower-cased, or None for a text "
     "holding a lone surrogate (left to the Python code)"},
    {"blake2b_8", blake2b_8_py, METH_O,
     "blake2b_8(data, /): the unkeyed 8-byte BLAKE2b digest of bytes, read big-endian (dedup.shingle_hash)"},
    {"index_form", index_form, METH_O,
     "index_form(text, /): search.index_form of a str: each CJK character set apart as \" c \""},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_csimhash", "dedup.simhash and search.index_form in C", 0, methods,
};

PyMODINIT_FUNC
PyInit__csimhash(void)
{
    for (Py_UCS4 c = 0; c < 256; c++)
        latin1_class[c] = c != '_' && Py_UNICODE_ISALNUM(c) ? WORD : SEPARATOR;
    for (int byte = 0; byte < 256; byte++)
        for (int k = 0; k < 8; k++)
            if (byte >> k & 1)
                byte_bits[byte] |= (uint64_t)1 << (8 * k);
    return PyModule_Create(&module_def);
}
