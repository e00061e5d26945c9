/* auto's content scores and the page kind's prose pass and repeated group in C (the references:
 * newscrawl/extract/algorithms/auto.py's python_content_scores, pagekind.py's python_prose_and_links and
 * python_largest_repeated_group; the tests hold each pair equal).
 *
 * S_i = own_i + decay * sum(S_child); an element is negative (its own text counts -link_penalty a
 * character) when its parent is, when it is a link, or, holding fewer than ``limit`` characters, when it
 * is a <footer>, an <aside> under ``aside_limit`` characters outside ``article_tags``, or when
 * ``counts_against(class, id)`` says so (asked only where class or id may hold one of ``hints``: a value
 * not ASCII, or holding one lower-cased). The same double operations in the same order as the Python
 * loop: the scores are equal to the last bit.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* "get" and "href", made once (module initialisation) */
static PyObject *str_get, *str_href;

static int
tag_is(PyObject *tag, const char *name)
{
    return PyUnicode_Check(tag) && PyUnicode_CompareWithASCIIString(tag, name) == 0;
}

/* whether counts_against may say yes for a class or id ``value``: a non-empty string that is not ASCII
 * (lower-casing beyond ASCII is left to Python), or whose ASCII lower-cased holds one of ``hints``
 * (boilerplate.NEGATIVE_HINT_WORDS, the words counts_against's own pre-check looks for) */
static int
may_count_against(PyObject *value, PyObject *hints, const unsigned int *starting)
{
    if (!PyUnicode_Check(value) || PyUnicode_GET_LENGTH(value) == 0)
        return 0;
    if (!PyUnicode_IS_ASCII(value))
        return 1;
    const unsigned char *text = PyUnicode_DATA(value);
    Py_ssize_t length = PyUnicode_GET_LENGTH(value);
    for (Py_ssize_t i = 0; i < length; i++) {
        unsigned int which = starting[Py_TOLOWER(text[i])];  /* the hints starting with this letter */
        for (Py_ssize_t h = 0; which; h++, which >>= 1) {
            if (!(which & 1))
                continue;
            PyObject *word = PyTuple_GET_ITEM(hints, h);
            const unsigned char *w = PyUnicode_DATA(word);
            Py_ssize_t k = 1, size = PyUnicode_GET_LENGTH(word);
            if (size > length - i)
                continue;
            while (k < size && Py_TOLOWER(text[i + k]) == w[k])
                k++;
            if (k == size)
                return 1;
        }
    }
    return 0;
}

/* whether an ancestor of element i has one of ``tags`` (-1 on an error) */
static int
inside(const Py_ssize_t *parent, PyObject *tag_list, Py_ssize_t i, PyObject *tags)
{
    for (Py_ssize_t p = parent[i]; p >= 0; p = parent[p]) {
        int hit = PySet_Contains(tags, PyList_GET_ITEM(tag_list, p));
        if (hit != 0)
            return hit;
    }
    return 0;
}

/* the length of the ``count`` lists ``args`` starts with, all of one length; -1 with an exception set when
 * there are fewer than ``nargs`` arguments, one is not a list, or the lengths differ */
static Py_ssize_t
lists_length(const char *name, PyObject *const *args, Py_ssize_t nargs, Py_ssize_t wanted, Py_ssize_t count)
{
    if (nargs != wanted) {
        PyErr_Format(PyExc_TypeError, "%s takes %zd arguments", name, wanted);
        return -1;
    }
    for (Py_ssize_t k = 0; k < count; k++) {
        if (!PyList_Check(args[k])) {
            PyErr_Format(PyExc_TypeError, "%s wants the statistics' lists", name);
            return -1;
        }
        if (PyList_GET_SIZE(args[k]) != PyList_GET_SIZE(args[0])) {
            PyErr_Format(PyExc_ValueError, "%s: the lists differ in length", name);
            return -1;
        }
    }
    return PyList_GET_SIZE(args[0]);
}

static PyObject *
content_scores(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t n = lists_length("content_scores", args, nargs, 13, 6);
    if (n < 0)
        return NULL;
    PyObject *parent_list = args[0], *tag_list = args[1], *chars_list = args[2], *own_list = args[3];
    PyObject *class_list = args[4], *id_list = args[5], *counts_against = args[10], *article_tags = args[11];
    PyObject *hints = args[12];
    if (!PyAnySet_Check(article_tags)) {
        PyErr_SetString(PyExc_TypeError, "article_tags must be a set");
        return NULL;
    }
    if (!PyTuple_Check(hints)) {
        PyErr_SetString(PyExc_TypeError, "hints must be a tuple");
        return NULL;
    }
    unsigned int starting[256] = {0};  /* a letter -> the bits of the hints starting with it */
    if (PyTuple_GET_SIZE(hints) > 32) {
        PyErr_SetString(PyExc_ValueError, "at most 32 hints");
        return NULL;
    }
    for (Py_ssize_t h = 0; h < PyTuple_GET_SIZE(hints); h++) {
        PyObject *word = PyTuple_GET_ITEM(hints, h);
        if (!PyUnicode_Check(word) || !PyUnicode_IS_ASCII(word) || PyUnicode_GET_LENGTH(word) == 0) {
            PyErr_SetString(PyExc_ValueError, "hints must be non-empty lower-case ASCII words");
            return NULL;
        }
        const unsigned char *w = PyUnicode_DATA(word);
        for (Py_ssize_t k = 0; k < PyUnicode_GET_LENGTH(word); k++)
            if (Py_TOLOWER(w[k]) != w[k]) {
                PyErr_SetString(PyExc_ValueError, "hints must be non-empty lower-case ASCII words");
                return NULL;
            }
        starting[w[0]] |= 1u << h;
    }
    double limit = PyFloat_AsDouble(args[6]), aside_limit = PyFloat_AsDouble(args[7]);
    double penalty = -PyFloat_AsDouble(args[8]), decay = PyFloat_AsDouble(args[9]);
    if (PyErr_Occurred())
        return NULL;
    Py_ssize_t *parent = PyMem_Malloc((n ? n : 1) * sizeof(Py_ssize_t));
    char *negative = PyMem_Calloc(n ? n : 1, 1);
    double *scores = PyMem_Malloc((n ? n : 1) * sizeof(double));
    PyObject *out = NULL;
    if (parent == NULL || negative == NULL || scores == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        parent[i] = PyLong_AsSsize_t(PyList_GET_ITEM(parent_list, i));
        if (parent[i] == -1 && PyErr_Occurred())
            goto done;
        if (parent[i] >= i) {
            PyErr_SetString(PyExc_ValueError, "content_scores: a parent after its child");
            goto done;
        }
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *tag = PyList_GET_ITEM(tag_list, i);
        long c = PyLong_AsLong(PyList_GET_ITEM(chars_list, i));
        long own = PyLong_AsLong(PyList_GET_ITEM(own_list, i));
        if ((c == -1 || own == -1) && PyErr_Occurred())
            goto done;
        Py_ssize_t p = parent[i];
        int neg = (p >= 0 && negative[p]) || tag_is(tag, "a");
        if (!neg && (double)c < limit) {
            if (tag_is(tag, "footer"))
                neg = 1;
            else if (tag_is(tag, "aside") && (double)c < aside_limit) {
                int in = inside(parent, tag_list, i, article_tags);
                if (in < 0)
                    goto done;
                neg = !in;
            }
            if (!neg) {
                PyObject *cls = PyList_GET_ITEM(class_list, i), *ident = PyList_GET_ITEM(id_list, i);
                if (may_count_against(cls, hints, starting) || may_count_against(ident, hints, starting)) {
                    PyObject *answer = PyObject_CallFunctionObjArgs(counts_against, cls, ident, NULL);
                    if (answer == NULL)
                        goto done;
                    neg = PyObject_IsTrue(answer);
                    Py_DECREF(answer);
                    if (neg < 0)
                        goto done;
                }
            }
        }
        negative[i] = (char)neg;
        scores[i] = neg ? penalty * (double)own : (double)own;
    }
    for (Py_ssize_t i = n - 1; i > 0; i--)
        scores[parent[i]] += decay * scores[i];
    out = PyList_New(n);
    if (out == NULL)
        goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *value = PyFloat_FromDouble(scores[i]);
        if (value == NULL) {
            Py_CLEAR(out);
            goto done;
        }
        PyList_SET_ITEM(out, i, value);
    }
done:
    PyMem_Free(parent);
    PyMem_Free(negative);
    PyMem_Free(scores);
    return out;
}

/* pagekind.classify_page_kind's pass (pagekind.python_prose_and_links is the reference): the largest prose
 * region (an element's own characters when at least ``paragraph_min``, plus each child's non-link
 * characters when at least ``paragraph_min`` with at most ``max_link_share`` of them in links) and the links
 * of at least ``headline_min`` characters with a non-empty href. */
static PyObject *
prose_and_links(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t n = lists_length("prose_and_links", args, nargs, 9, 6);
    if (n < 0)
        return NULL;
    PyObject *tag_list = args[0], *own_list = args[1], *chars_list = args[2], *link_list = args[3];
    PyObject *parent_list = args[4], *elements = args[5];
    long headline_min = PyLong_AsLong(args[6]), paragraph_min = PyLong_AsLong(args[7]);
    double share = PyFloat_AsDouble(args[8]);
    if (PyErr_Occurred())
        return NULL;
    if (n == 0) {
        PyErr_SetString(PyExc_ValueError, "prose_and_links: no elements");
        return NULL;
    }
    long long *region = PyMem_Calloc(n, sizeof(long long));
    if (region == NULL)
        return PyErr_NoMemory();
    long fewest = headline_min < paragraph_min ? headline_min : paragraph_min;
    long links = 0;
    PyObject *out = NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        long c = PyLong_AsLong(PyList_GET_ITEM(chars_list, i));
        if (c == -1 && PyErr_Occurred())
            goto done;
        if (c < fewest)
            continue;
        if (tag_is(PyList_GET_ITEM(tag_list, i), "a")) {
            if (c >= headline_min) {
                PyObject *href = PyObject_CallMethodOneArg(PyList_GET_ITEM(elements, i), str_get, str_href);
                if (href == NULL)
                    goto done;
                int truth = PyObject_IsTrue(href);
                Py_DECREF(href);
                if (truth < 0)
                    goto done;
                links += truth;
            }
            continue;
        }
        long own = PyLong_AsLong(PyList_GET_ITEM(own_list, i));
        long in_links = PyLong_AsLong(PyList_GET_ITEM(link_list, i));
        if ((own == -1 || in_links == -1) && PyErr_Occurred())
            goto done;
        if (own >= paragraph_min)
            region[i] += own;
        long nonlink = c - in_links;
        if (i && nonlink >= paragraph_min && (double)in_links <= share * (double)c) {
            Py_ssize_t p = PyLong_AsSsize_t(PyList_GET_ITEM(parent_list, i));
            if (p == -1 && PyErr_Occurred())
                goto done;
            if (p < 0 || p >= i) {
                PyErr_SetString(PyExc_ValueError, "prose_and_links: a parent after its child");
                goto done;
            }
            region[p] += nonlink;
        }
    }
    long long prose = region[0];
    for (Py_ssize_t i = 1; i < n; i++)
        if (region[i] > prose)
            prose = region[i];
    out = Py_BuildValue("(Ll)", prose, links);
done:
    PyMem_Free(region);
    return out;
}

/* one element holding links, for largest_group's sort: its parent, tag and class ("" for none) */
typedef struct {
    Py_ssize_t parent;
    PyObject *tag;
    PyObject *cls;
} GroupKey;

static int
compare_keys(const void *a, const void *b)
{
    const GroupKey *x = a, *y = b;
    if (x->parent != y->parent)
        return x->parent < y->parent ? -1 : 1;
    int order = PyUnicode_Compare(x->tag, y->tag);  /* (str against str: no error) */
    return order ? order : PyUnicode_Compare(x->cls, y->cls);
}

/* pagekind._largest_repeated_group's count (python_largest_repeated_group is the reference): the most
 * elements after the first that hold links and share a parent, a tag and a class (none and "" alike),
 * by sorting their keys, so a page of thousands of siblings costs n log n string comparisons */
static PyObject *
largest_group(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t n = lists_length("largest_group", args, nargs, 4, 4);
    if (n < 0)
        return NULL;
    PyObject *parent_list = args[0], *tag_list = args[1], *class_list = args[2], *link_list = args[3];
    GroupKey *keys = PyMem_Malloc((n ? n : 1) * sizeof(GroupKey));
    PyObject *empty = PyUnicode_New(0, 0);
    PyObject *out = NULL;
    if (keys == NULL || empty == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t k = 0;
    for (Py_ssize_t i = 1; i < n; i++) {
        long links = PyLong_AsLong(PyList_GET_ITEM(link_list, i));
        Py_ssize_t p = PyLong_AsSsize_t(PyList_GET_ITEM(parent_list, i));
        if ((links == -1 || p == -1) && PyErr_Occurred())
            goto done;
        if (!links)
            continue;
        PyObject *tag = PyList_GET_ITEM(tag_list, i), *cls = PyList_GET_ITEM(class_list, i);
        if (!PyUnicode_Check(tag) || (cls != Py_None && !PyUnicode_Check(cls))) {
            PyErr_SetString(PyExc_TypeError, "largest_group: tags and classes are strings");
            goto done;
        }
        keys[k].parent = p;
        keys[k].tag = tag;
        keys[k].cls = cls == Py_None ? empty : cls;
        k++;
    }
    qsort(keys, (size_t)k, sizeof(GroupKey), compare_keys);
    Py_ssize_t best = 0, run = 0;
    for (Py_ssize_t j = 0; j < k; j++) {
        run = (j && compare_keys(&keys[j - 1], &keys[j]) == 0) ? run + 1 : 1;
        if (run > best)
            best = run;
    }
    out = PyLong_FromSsize_t(best);
done:
    PyMem_Free(keys);
    Py_XDECREF(empty);
    return out;
}

static PyMethodDef methods[] = {
    {"content_scores", (PyCFunction)(void (*)(void))content_scores, METH_FASTCALL,
     "content_scores(parent, tag, chars, own_chars, classes, ids, limit, aside_limit, link_penalty, decay, "
     "counts_against, article_tags, hints, /): auto's content scores (auto.python_content_scores is the "
     "reference)"},
    {"prose_and_links", (PyCFunction)(void (*)(void))prose_and_links, METH_FASTCALL,
     "prose_and_links(tag, own_chars, chars, link_chars, parent, elements, headline_min, paragraph_min, "
     "max_link_share, /): (largest prose region, headline links) (pagekind.python_prose_and_links)"},
    {"largest_group", (PyCFunction)(void (*)(void))largest_group, METH_FASTCALL,
     "largest_group(parent, tag, classes, link_tags, /): the largest number of same-tag, same-class "
     "siblings holding links (pagekind.python_largest_repeated_group)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_cscores", "auto's content scores in C", 0, methods,
};

PyMODINIT_FUNC
PyInit__cscores(void)
{
    str_get = PyUnicode_InternFromString("get");
    str_href = PyUnicode_InternFromString("href");
    if (str_get == NULL || str_href == NULL)
        return NULL;
    return PyModule_Create(&module_def);
}
