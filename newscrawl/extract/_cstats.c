/* The per-element statistics pass of newscrawl.extract.stats in C (optional; the pure-Python code in
 * stats.py is the reference and the fallback, see newscrawl/extract/native.py).
 *
 * It reads lxml's public element struct (lxml.etree.h: PyObject_HEAD, _doc, _c_node, _tag) and libxml2's
 * xmlNode/xmlAttr fields, with the headers lxml ships (lxml.get_include()). Field reads only: no libxml2
 * or lxml function is called, so nothing is linked but Python. Every element handed in is type-checked
 * against lxml.etree._Element (fetched at import) before its struct is read.
 *
 * While a walk reads the tree, no object the garbage collector tracks is created (only C memory and
 * str objects), so no Python code can run and change the tree under it; the lists are built afterwards.
 * Walks are iterative (children / next / parent pointers), so a page nested 200,000 deep costs no stack.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include <libxml/tree.h>
#include "lxml.etree.h"

static PyTypeObject *element_type = NULL; /* lxml.etree._Element */

#define NODE_OF(obj) (((struct LxmlElement *)(obj))->_c_node)

static int
is_element(PyObject *obj)
{
    return PyObject_TypeCheck(obj, element_type);
}

/* ---- text: lxml's .text and .tail --------------------------------------------------------------- */

/* lxml's _textNodeOrSkip: the node if it is text or CDATA, XInclude markers skipped, else NULL */
static const xmlNode *
text_node_or_skip(const xmlNode *node)
{
    while (node != NULL) {
        if (node->type == XML_TEXT_NODE || node->type == XML_CDATA_SECTION_NODE)
            return node;
        if (node->type == XML_XINCLUDE_START || node->type == XML_XINCLUDE_END)
            node = node->next;
        else
            return NULL;
    }
    return NULL;
}

/* what each byte of UTF-8 text adds to the count of characters not white space to str.split()
 * (Py_UNICODE_ISSPACE): 1 for a character's first byte, 0 for ASCII white space (\t \n \v \f \r,
 * \x1c-\x1f, space) and continuation bytes; SPECIAL for the first bytes of the other white space
 * (U+0085, U+00A0: C2; U+1680: E1; U+2000-U+200A, U+2028, U+2029, U+202F, U+205F: E2; U+3000: E3) */
enum { SPECIAL = 2 };
static unsigned char byte_count[256];

static void
init_byte_count(void)
{
    for (int c = 0; c < 256; c++)
        byte_count[c] = (c >= 0x80 && c < 0xc0) ? 0 : 1;
    for (int c = 0x09; c <= 0x0d; c++)
        byte_count[c] = 0;
    for (int c = 0x1c; c <= 0x20; c++)
        byte_count[c] = 0;
    byte_count[0] = 0;
    byte_count[0xc2] = byte_count[0xe1] = byte_count[0xe2] = byte_count[0xe3] = SPECIAL;
}

/* whether the character at ``s`` (its first byte one of the SPECIAL ones) is white space */
static int
special_space(const unsigned char *s)
{
    switch (s[0]) {
    case 0xc2:
        return s[1] == 0x85 || s[1] == 0xa0;
    case 0xe1:
        return s[1] == 0x9a && s[2] == 0x80;
    case 0xe2:
        if (s[1] == 0x80)
            return (s[2] >= 0x80 && s[2] <= 0x8a) || s[2] == 0xa8 || s[2] == 0xa9 || s[2] == 0xaf;
        return s[1] == 0x81 && s[2] == 0x9f;
    default: /* 0xe3 */
        return s[1] == 0x80 && s[2] == 0x80;
    }
}

/* code points of UTF-8 ``s`` (NUL-terminated) that are not white space to str.split(); libxml2 keeps text
 * valid UTF-8, so counting the bytes that start a character counts code points. (special_space reads at
 * most two bytes past a first byte and stops at a NUL: s[1] == 0 fails every test before s[2] is read) */
static Py_ssize_t
non_space_chars(const unsigned char *s)
{
    Py_ssize_t count = 0;
    for (unsigned char c; (c = *s) != 0; s++) {
        unsigned char add = byte_count[c];
        if (add == SPECIAL)
            add = !special_space(s);
        count += add;
    }
    return count;
}

/* non-white-space characters of lxml's text run starting at ``node`` (an element's .children for its
 * .text, its .next for its .tail): consecutive text and CDATA nodes, so text after a comment is not in it */
static Py_ssize_t
run_chars(const xmlNode *node)
{
    Py_ssize_t count = 0;
    for (node = text_node_or_skip(node); node != NULL; node = text_node_or_skip(node->next)) {
        if (node->content != NULL)
            count += non_space_chars(node->content);
    }
    return count;
}

/* ---- tags ---------------------------------------------------------------------------------------- */

/* a page's distinct tags, keyed by the name and namespace pointers libxml2 gives (names are interned in
 * the document's dictionary, so a page has a few dozen): ``entries`` in the order met (an element keeps
 * its entry's number: entries never move), ``table`` an open-addressing hash of entry number + 1 */
typedef struct {
    const xmlChar *name;
    const xmlChar *href;
    PyObject *str;
    int flags; /* IS_A, IS_BLOCK */
} TagEntry;

enum { IS_A = 1, IS_BLOCK = 2, LOOKED_UP = 4 }; /* LOOKED_UP: IS_BLOCK says the set's answer */

typedef struct {
    TagEntry *entries;
    Py_ssize_t used;
    Py_ssize_t *table;
    Py_ssize_t mask; /* table size - 1, a power of two; the table is at most half full */
} TagTable;

static int
tags_init(TagTable *t)
{
    t->used = 0;
    t->mask = 127;
    t->entries = PyMem_Malloc(((size_t)t->mask + 1) / 2 * sizeof(TagEntry));
    t->table = PyMem_Calloc((size_t)t->mask + 1, sizeof(Py_ssize_t));
    return t->entries == NULL || t->table == NULL ? -1 : 0;
}

static void
tags_free(TagTable *t)
{
    for (Py_ssize_t i = 0; i < t->used; i++)
        Py_DECREF(t->entries[i].str);
    PyMem_Free(t->entries);
    PyMem_Free(t->table);
    t->entries = NULL;
    t->table = NULL;
    t->used = 0;
}

/* the table position of (name, href): where its entry's number is, or the empty place for it */
static Py_ssize_t
tags_probe(const TagTable *t, const xmlChar *name, const xmlChar *href)
{
    size_t h = ((size_t)name >> 4) ^ ((size_t)href >> 3) ^ ((size_t)name >> 12);
    Py_ssize_t i = (Py_ssize_t)(h & (size_t)t->mask);
    while (t->table[i] != 0) {
        const TagEntry *e = &t->entries[t->table[i] - 1];
        if (e->name == name && e->href == href)
            break;
        i = (i + 1) & t->mask;
    }
    return i;
}

/* lxml's _namespacedName: "name", or "{href}name" in a namespace */
static PyObject *
tag_str(const xmlNode *node, const xmlChar *href)
{
    const char *name = node->name == NULL ? "" : (const char *)node->name;
    if (href == NULL)
        return PyUnicode_DecodeUTF8(name, (Py_ssize_t)strlen(name), NULL);
    size_t hl = strlen((const char *)href), nl = strlen(name);
    char *buf = PyMem_Malloc(hl + nl + 3);
    if (buf == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    buf[0] = '{';
    memcpy(buf + 1, href, hl);
    buf[hl + 1] = '}';
    memcpy(buf + hl + 2, name, nl);
    PyObject *s = PyUnicode_DecodeUTF8(buf, (Py_ssize_t)(hl + nl + 2), NULL);
    PyMem_Free(buf);
    return s;
}

/* the entry number of ``node``'s tag, added if new; -1 with an exception set on failure */
static Py_ssize_t
tags_entry(TagTable *t, const xmlNode *node)
{
    const xmlChar *href = node->ns == NULL ? NULL : node->ns->href;
    Py_ssize_t i = tags_probe(t, node->name, href);
    if (t->table[i] != 0)
        return t->table[i] - 1;
    if (2 * (t->used + 1) > t->mask + 1) {
        /* twice the room: the entries keep their numbers, the table is hashed again */
        Py_ssize_t mask = 2 * t->mask + 1;
        TagEntry *entries = PyMem_Realloc(t->entries, ((size_t)mask + 1) / 2 * sizeof(TagEntry));
        if (entries == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        t->entries = entries;
        Py_ssize_t *table = PyMem_Calloc((size_t)mask + 1, sizeof(Py_ssize_t));
        if (table == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        PyMem_Free(t->table);
        t->table = table;
        t->mask = mask;
        for (Py_ssize_t j = 0; j < t->used; j++)
            t->table[tags_probe(t, t->entries[j].name, t->entries[j].href)] = j + 1;
        i = tags_probe(t, node->name, href);
    }
    PyObject *s = tag_str(node, href);
    if (s == NULL)
        return -1;
    TagEntry *e = &t->entries[t->used];
    e->name = node->name;
    e->href = href;
    e->str = s;
    e->flags = href == NULL && node->name != NULL && strcmp((const char *)node->name, "a") == 0 ? IS_A : 0;
    t->table[i] = ++t->used;
    return t->used - 1;
}

/* ---- the walk ------------------------------------------------------------------------------------ */

static const xmlNode *
element_or_next(const xmlNode *node)
{
    while (node != NULL && node->type != XML_ELEMENT_NODE)
        node = node->next;
    return node;
}

/* the element after ``node`` in pre-order below ``root``, NULL past the last: its first element child, else
 * the next element sibling of it or of its nearest ancestor below ``root`` that has one; ``*depth`` (below
 * ``root``) follows it down and up */
static const xmlNode *
preorder_next(const xmlNode *node, const xmlNode *root, Py_ssize_t *depth)
{
    const xmlNode *next = element_or_next(node->children);
    if (next != NULL) {
        ++*depth;
        return next;
    }
    while (node != root) {
        next = element_or_next(node->next);
        if (next != NULL)
            return next;
        node = node->parent;
        --*depth;
    }
    return NULL;
}

/* a list of ``values``; a value up to n is the shared int of ``ints`` (indices, counts of elements and
 * most character counts are: one int object each, not one per list entry) */
static PyObject *
list_of(const Py_ssize_t *values, Py_ssize_t n, PyObject *const *ints)
{
    PyObject *list = PyList_New(n);
    if (list == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t value = values[i];
        PyObject *v;
        if (value >= 0 && value <= n) {
            v = ints[value];
            Py_INCREF(v);
        } else if ((v = PyLong_FromSsize_t(value)) == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, v);
    }
    return list;
}

enum { PARENT, OWN, CHARS, TAGS, LINK_CHARS, LINK_TAGS, LINE, DEPTH, SLOT, NARRAYS };

PyDoc_STRVAR(walk_doc,
"walk(body, elements, block_tags) -> (tag, index, parent, own_chars, chars, tags, link_chars, link_tags,\n"
"line, depth, line_sum)\n\n"
"compute_stats' lists for ``elements``, which must be ``list(body.iter(etree.Element))``.");

static PyObject *
walk(PyObject *self, PyObject *args)
{
    PyObject *body, *elements, *block_tags;
    if (!PyArg_ParseTuple(args, "OO!O:walk", &body, &PyList_Type, &elements, &block_tags))
        return NULL;
    if (!is_element(body)) {
        PyErr_Format(PyExc_TypeError, "walk() needs an lxml element, got %R", body);
        return NULL;
    }
    if (!PyAnySet_Check(block_tags)) {
        PyErr_Format(PyExc_TypeError, "walk() needs a set of block tags, got %R", block_tags);
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(elements);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!is_element(PyList_GET_ITEM(elements, i))) {
            PyErr_Format(PyExc_TypeError, "walk() needs lxml elements, got %R", PyList_GET_ITEM(elements, i));
            return NULL;
        }
    }
    const xmlNode *root = NODE_OF(body);
    if (root == NULL) {
        PyErr_SetString(PyExc_ValueError, "walk(): the element has no node");
        return NULL;
    }
    Py_ssize_t size = n ? n : 1;
    Py_ssize_t *arrays = PyMem_Calloc((size_t)size * NARRAYS, sizeof(Py_ssize_t));
    Py_ssize_t stack_size = 64, *stack = PyMem_Malloc((size_t)stack_size * sizeof(Py_ssize_t));
    TagTable tags_table = {NULL, 0, NULL, 0};
    PyObject *result = NULL, *lists[NARRAYS] = {NULL}, *tag_list = NULL, *index = NULL, **ints = NULL;
    if (arrays == NULL || stack == NULL || tags_init(&tags_table) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t *parent = arrays + PARENT * size, *own = arrays + OWN * size, *chars = arrays + CHARS * size,
               *tags = arrays + TAGS * size, *link_chars = arrays + LINK_CHARS * size,
               *link_tags = arrays + LINK_TAGS * size, *line = arrays + LINE * size,
               *depth = arrays + DEPTH * size, *slot = arrays + SLOT * size;

    /* pre-order over the element nodes under root, as lxml's iter(etree.Element) goes */
    Py_ssize_t i = 0, d = 0;
    const xmlNode *node = root->type == XML_ELEMENT_NODE ? root : NULL;
    while (node != NULL) {
        if (i >= n || NODE_OF(PyList_GET_ITEM(elements, i)) != node) {
            PyErr_SetString(PyExc_ValueError, "walk(): elements are not body.iter(etree.Element)");
            goto done;
        }
        if ((slot[i] = tags_entry(&tags_table, node)) < 0)
            goto done;
        parent[i] = d ? stack[d - 1] : -1;
        depth[i] = d;
        own[i] += run_chars(node->children);
        if (i)
            own[parent[i]] += run_chars(node->next);
        if (d >= stack_size) {
            Py_ssize_t *bigger = PyMem_Realloc(stack, (size_t)stack_size * 2 * sizeof(Py_ssize_t));
            if (bigger == NULL) {
                PyErr_NoMemory();
                goto done;
            }
            stack = bigger;
            stack_size *= 2;
        }
        stack[d] = i++;
        node = preorder_next(node, root, &d);
    }
    if (i != n) {
        PyErr_SetString(PyExc_ValueError, "walk(): elements are not body.iter(etree.Element)");
        goto done;
    }

    /* the reversed pass */
    memcpy(chars, own, (size_t)n * sizeof(Py_ssize_t));
    for (Py_ssize_t j = n - 1; j > 0; j--) {
        Py_ssize_t c = chars[j], p = parent[j];
        if (tags_table.entries[slot[j]].flags & IS_A) {
            link_chars[j] = c;
            link_tags[j] += 1;
        }
        chars[p] += c;
        tags[p] += tags[j] + 1;
        link_chars[p] += link_chars[j];
        link_tags[p] += link_tags[j];
    }
    if (n && tags_table.entries[slot[0]].flags & IS_A) {
        link_chars[0] = chars[0];
        link_tags[0] += 1;
    }

    /* from here on objects the collector tracks are made: the tree is no longer read */
    /* block tags: one set lookup per distinct tag  */
    for (Py_ssize_t k = 0; k < tags_table.used; k++) {
        TagEntry *s = &tags_table.entries[k];
        int found = PySet_Contains(block_tags, s->str);
        if (found < 0)
            goto done;
        if (found)
            s->flags |= IS_BLOCK;
    }
    Py_ssize_t nlines = 0;
    for (Py_ssize_t j = 0; j < n; j++) {
        if (tags_table.entries[slot[j]].flags & IS_BLOCK)
            nlines++;
        line[j] = nlines;
    }
    tag_list = PyList_New(n);
    if (tag_list == NULL)
        goto done;
    for (Py_ssize_t j = 0; j < n; j++) {
        PyObject *s = tags_table.entries[slot[j]].str;
        Py_INCREF(s);
        PyList_SET_ITEM(tag_list, j, s);
    }
    ints = PyMem_Calloc((size_t)n + 1, sizeof(PyObject *));
    if (ints == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t j = 0; j <= n; j++) {
        if ((ints[j] = PyLong_FromSsize_t(j)) == NULL)
            goto done;
    }
#if PY_VERSION_HEX < 0x030e0000
    index = _PyDict_NewPresized(n); /* (no resizing on the way: a fifth of the dict's cost) */
#else
    index = PyDict_New();
#endif
    if (index == NULL)
        goto done;
    for (Py_ssize_t j = 0; j < n; j++) {
        if (PyDict_SetItem(index, PyList_GET_ITEM(elements, j), ints[j]) < 0)
            goto done;
    }
    for (int k = 0; k < SLOT; k++) {
        if ((lists[k] = list_of(arrays + k * size, n, ints)) == NULL)
            goto done;
    }
    result = Py_BuildValue("(NNNNNNNNNNn)", tag_list, index, lists[PARENT], lists[OWN], lists[CHARS],
                           lists[TAGS], lists[LINK_CHARS], lists[LINK_TAGS], lists[LINE], lists[DEPTH],
                           nlines);
    if (result != NULL) {
        /* the references went into the tuple */
        tag_list = index = NULL;
        for (int k = 0; k < SLOT; k++)
            lists[k] = NULL;
    }
done:
    Py_XDECREF(tag_list);
    Py_XDECREF(index);
    for (int k = 0; k < SLOT; k++)
        Py_XDECREF(lists[k]);
    if (ints != NULL) {
        for (Py_ssize_t j = 0; j <= n; j++)
            Py_XDECREF(ints[j]);
        PyMem_Free(ints);
    }
    tags_free(&tags_table);
    PyMem_Free(stack);
    PyMem_Free(arrays);
    return result;
}

/* ---- attribute values ---------------------------------------------------------------------------- */

/* whether the document declares attributes (a DTD's defaults: xmlGetNoNsProp would read them) */
static int
doc_declares_attributes(const xmlNode *node)
{
    const xmlDoc *doc = node->doc;
    if (doc == NULL)
        return 0;
    return (doc->intSubset != NULL && doc->intSubset->attributes != NULL)
           || (doc->extSubset != NULL && doc->extSubset->attributes != NULL);
}

PyDoc_STRVAR(attribute_values_doc,
"attribute_values(elements, name) -> list of str or None\n\n"
"``[el.get(name) for el in elements]`` for a name without a namespace.");

static PyObject *
attribute_values(PyObject *self, PyObject *args)
{
    PyObject *elements, *name_obj;
    if (!PyArg_ParseTuple(args, "O!U:attribute_values", &PyList_Type, &elements, &name_obj))
        return NULL;
    Py_ssize_t name_len;
    const char *name = PyUnicode_AsUTF8AndSize(name_obj, &name_len);
    if (name == NULL)
        return NULL;
    if (name_len == 0 || memchr(name, '{', (size_t)name_len) != NULL || (Py_ssize_t)strlen(name) != name_len) {
        PyErr_Format(PyExc_ValueError, "attribute_values() needs a plain attribute name, got %R", name_obj);
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(elements);
    PyObject *result = PyList_New(n);
    if (result == NULL)
        return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *value = NULL;
        if (i >= PyList_GET_SIZE(elements)) {
            PyErr_SetString(PyExc_RuntimeError, "attribute_values(): the list changed");
            goto error;
        }
        PyObject *el = PyList_GET_ITEM(elements, i);
        if (!is_element(el)) {
            PyErr_Format(PyExc_TypeError, "attribute_values() needs lxml elements, got %R", el);
            goto error;
        }
        const xmlNode *node = NODE_OF(el);
        const xmlAttr *attr = NULL;
        int slow = node == NULL || node->type != XML_ELEMENT_NODE;
        if (!slow) {
            for (attr = node->properties; attr != NULL; attr = attr->next) {
                if (attr->type == XML_ATTRIBUTE_NODE && attr->ns == NULL && attr->name != NULL
                    && strcmp((const char *)attr->name, name) == 0)
                    break;
            }
            if (attr == NULL) {
                slow = doc_declares_attributes(node);
            } else if (attr->children != NULL
                       && (attr->children->next != NULL
                           || (attr->children->type != XML_TEXT_NODE
                               && attr->children->type != XML_CDATA_SECTION_NODE)
                           || attr->children->content == NULL)) {
                slow = 1; /* entity references and the like: libxml2 joins them, lxml's get() knows how */
            }
        }
        if (slow) {
            value = PyObject_CallMethod(el, "get", "O", name_obj);
        } else if (attr == NULL) {
            value = Py_None;
            Py_INCREF(value);
        } else if (attr->children == NULL) {
            value = PyUnicode_FromStringAndSize("", 0);
        } else {
            const char *content = (const char *)attr->children->content;
            value = PyUnicode_DecodeUTF8(content, (Py_ssize_t)strlen(content), NULL);
        }
        if (value == NULL)
            goto error;
        PyList_SET_ITEM(result, i, value);
    }
    return result;
error:
    Py_DECREF(result);
    return NULL;
}

/* ---- the tree's size ----------------------------------------------------------------------------- */

/* code points of UTF-8 ``s`` (libxml2 keeps it valid: the bytes that start a character) */
static Py_ssize_t
code_points(const unsigned char *s)
{
    Py_ssize_t count = 0;
    for (; *s; s++)
        count += (*s & 0xc0) != 0x80;
    return count;
}

/* whether ``attr`` is a class or id attribute (no namespace) whose value has more than ``most`` characters:
 * 1 or 0, or -1 when its value is not one text node (entity references: the XPath decides) */
static int
long_name(const xmlAttr *attr, Py_ssize_t most)
{
    if (attr->ns != NULL || attr->name == NULL)
        return 0;
    const char *name = (const char *)attr->name;
    if (strcmp(name, "class") != 0 && strcmp(name, "id") != 0)
        return 0;
    const xmlNode *text = attr->children;
    if (text == NULL)
        return 0;
    if (text->next != NULL || (text->type != XML_TEXT_NODE && text->type != XML_CDATA_SECTION_NODE)
        || text->content == NULL)
        return -1;
    const unsigned char *value = text->content;
    if (strlen((const char *)value) <= (size_t)most) /* (no more characters than bytes) */
        return 0;
    return code_points(value) > most;
}

PyDoc_STRVAR(tree_counts_doc,
"tree_counts(root, name_chars) -> (elements, attributes, depth, long_names) or None\n\n"
"What check_tree and cap_names ask of the document ``root`` is the top element of: count(//*),\n"
"count(//@*), the depth of its deepest element (root: 0) and the class and id values longer than\n"
"``name_chars`` characters (-1: some value the XPath must read). None when ``root`` is not its\n"
"document's only top element (the XPaths then answer).");

static PyObject *
tree_counts(PyObject *self, PyObject *args)
{
    PyObject *root_obj;
    Py_ssize_t most;
    if (!PyArg_ParseTuple(args, "On:tree_counts", &root_obj, &most))
        return NULL;
    if (!is_element(root_obj)) {
        PyErr_Format(PyExc_TypeError, "tree_counts() needs an lxml element, got %R", root_obj);
        return NULL;
    }
    const xmlNode *root = NODE_OF(root_obj);
    if (root == NULL || root->type != XML_ELEMENT_NODE || root->parent == NULL
        || (root->parent->type != XML_DOCUMENT_NODE && root->parent->type != XML_HTML_DOCUMENT_NODE))
        Py_RETURN_NONE;
    for (const xmlNode *other = root->parent->children; other != NULL; other = other->next) {
        if (other != root && other->type == XML_ELEMENT_NODE)
            Py_RETURN_NONE;
    }
    Py_ssize_t elements = 0, attributes = 0, depth = 0, deepest = 0, long_names = 0;
    const xmlNode *node = root;
    while (node != NULL) {
        elements++;
        if (depth > deepest)
            deepest = depth;
        for (const xmlAttr *attr = node->properties; attr != NULL; attr = attr->next) {
            attributes++;
            if (long_names >= 0) {
                int found = long_name(attr, most);
                long_names = found < 0 ? -1 : long_names + found;
            }
        }
        node = preorder_next(node, root, &depth);
    }
    return Py_BuildValue("(nnnn)", elements, attributes, deepest, long_names);
}

/* ---- the attribute scan: limits.python_attribute_counts in C ----------------------------------- */

/* The regular expressions of limits.py (_light_run, _heavy_tag, _attributes) translated construct by
 * construct: each is possessive throughout, so each construct is one greedy loop that never gives back,
 * and an alternation tries its branches in the pattern's order. A function per construct takes the
 * position where it is tried and returns where it ends, or -1 where it does not match. Every loop moves
 * forward and every read is checked against the end (a truncated tag reads as the pattern's \Z). */

enum { C_WS = 1, C_LETTER = 2 };
static unsigned char scan_class[256];

static void
init_scan_class(void)
{
    scan_class['\t'] = scan_class['\n'] = scan_class['\f'] = scan_class['\r'] = scan_class[' '] = C_WS;
    for (int c = 'a'; c <= 'z'; c++)
        scan_class[c] = scan_class[c - 'a' + 'A'] = C_LETTER;
}

#define MAX_RAW_NAMES 16

typedef struct {
    const unsigned char *s;
    Py_ssize_t n;
    Py_ssize_t light_most; /* attributes a tag of the light run holds at most */
    int raw_count;
    const char *raw[MAX_RAW_NAMES]; /* elements whose text is not markup, lower case */
    Py_ssize_t raw_len[MAX_RAW_NAMES];
} Scan;

#define IS_WS(c) (scan_class[(unsigned char)(c)] & C_WS)
#define IS_LETTER(c) (scan_class[(unsigned char)(c)] & C_LETTER)
/* [^\t\n\f\r /> ] */
#define IN_NAME(c) (!IS_WS(c) && (c) != '/' && (c) != '>')

/* ``name`` (lower case letters) at ``i`` in any ASCII case */
static int
has_name(const Scan *sc, Py_ssize_t i, const char *name, Py_ssize_t len)
{
    if (sc->n - i < len)
        return 0;
    for (Py_ssize_t k = 0; k < len; k++) {
        if ((sc->s[i + k] | 0x20) != (unsigned char)name[k])
            return 0;
    }
    return 1;
}

/* _ATTRIBUTE: [WS/]*+ NAME (?:[WS]*+=[WS]*+(?:"[^"]*+(?:"|\Z)|'[^']*+(?:'|\Z)|[^WS>]*+))?+ */
static Py_ssize_t
scan_attribute(const Scan *sc, Py_ssize_t i)
{
    const unsigned char *s = sc->s;
    Py_ssize_t n = sc->n;
    while (i < n && (IS_WS(s[i]) || s[i] == '/'))
        i++;
    if (i >= n || s[i] == '>')
        return -1;
    i++;
    while (i < n && IN_NAME(s[i]) && s[i] != '=')
        i++;
    Py_ssize_t k = i;
    while (k < n && IS_WS(s[k]))
        k++;
    if (k >= n || s[k] != '=')
        return i;
    k++;
    while (k < n && IS_WS(s[k]))
        k++;
    if (k < n && (s[k] == '"' || s[k] == '\'')) {
        const unsigned char *close = memchr(s + k + 1, s[k], (size_t)(n - k - 1));
        return close == NULL ? n : close - s + 1;
    }
    while (k < n && !IS_WS(s[k]) && s[k] != '>')
        k++;
    return k;
}

/* (?:_ATTRIBUTE){0,most}+ from ``i``: where it ends; ``*count``: the attributes */
static Py_ssize_t
scan_attributes(const Scan *sc, Py_ssize_t i, Py_ssize_t most, Py_ssize_t *count)
{
    Py_ssize_t found = 0;
    while (found < most) {
        Py_ssize_t next = scan_attribute(sc, i);
        if (next < 0)
            break;
        i = next;
        found++;
    }
    *count = found;
    return i;
}

/* [A-Za-z][^WS/>]*+ */
static Py_ssize_t
scan_tag_name(const Scan *sc, Py_ssize_t i)
{
    if (i >= sc->n || !IS_LETTER(sc->s[i]))
        return -1;
    i++;
    while (i < sc->n && IN_NAME(sc->s[i]))
        i++;
    return i;
}

/* after '<': the bare end tag /[A-Za-z][^WS/>]*+> */
static Py_ssize_t
scan_end_tag(const Scan *sc, Py_ssize_t i)
{
    if (i >= sc->n || sc->s[i] != '/')
        return -1;
    i = scan_tag_name(sc, i + 1);
    return i >= 0 && i < sc->n && sc->s[i] == '>' ? i + 1 : -1;
}

/* after '<': an element of sc->raw whole, NAME(?=[WS/>]) attributes [WS/]*+> (?:[^<]++|<(?!/NAME))*+ */
static Py_ssize_t
scan_raw(const Scan *sc, Py_ssize_t i)
{
    const unsigned char *s = sc->s;
    Py_ssize_t n = sc->n, count;
    for (int r = 0; r < sc->raw_count; r++) {
        const char *name = sc->raw[r];
        Py_ssize_t len = sc->raw_len[r];
        if (!has_name(sc, i, name, len) || i + len >= n || !(IS_WS(s[i + len]) || s[i + len] == '/'
                                                              || s[i + len] == '>'))
            continue;
        Py_ssize_t j = scan_attributes(sc, i + len, sc->light_most, &count);
        while (j < n && (IS_WS(s[j]) || s[j] == '/'))
            j++;
        if (j >= n || s[j] != '>')
            continue;
        j++;
        for (;;) {
            const unsigned char *lt = memchr(s + j, '<', (size_t)(n - j));
            if (lt == NULL)
                return n;
            j = lt - s;
            if (j + 1 < n && s[j + 1] == '/' && has_name(sc, j + 2, name, len))
                return j;
            j++;
        }
    }
    return -1;
}

/* after '<': the common tag, /?[A-Za-z][^WS/>]*+(?:[WS]++[^WS/>="'<]++(?:="[^"]*+")?+){0,most}+[WS]*+/?> */
static Py_ssize_t
scan_plain(const Scan *sc, Py_ssize_t i)
{
    const unsigned char *s = sc->s;
    Py_ssize_t n = sc->n;
    if (i < n && s[i] == '/')
        i++;
    i = scan_tag_name(sc, i);
    if (i < 0)
        return -1;
    for (Py_ssize_t found = 0; found < sc->light_most; found++) {
        Py_ssize_t k = i;
        while (k < n && IS_WS(s[k]))
            k++;
        if (k == i || k >= n || !IN_NAME(s[k]) || s[k] == '=' || s[k] == '"' || s[k] == '\''
            || s[k] == '<')
            break;
        while (k < n && IN_NAME(s[k]) && s[k] != '=' && s[k] != '"' && s[k] != '\'' && s[k] != '<')
            k++;
        if (k + 1 < n && s[k] == '=' && s[k + 1] == '"') {
            const unsigned char *close = memchr(s + k + 2, '"', (size_t)(n - k - 2));
            if (close != NULL)
                k = close - s + 1;
        }
        i = k;
    }
    while (i < n && IS_WS(s[i]))
        i++;
    if (i < n && s[i] == '/')
        i++;
    return i < n && s[i] == '>' ? i + 1 : -1;
}

/* after '<': a tag of at most light_most attributes, up to its end,
 * /?[A-Za-z][^WS/>]*+(?:_ATTRIBUTE){0,most}+(?=[WS/]*+(?:>|\Z)) */
static Py_ssize_t
scan_light(const Scan *sc, Py_ssize_t i)
{
    Py_ssize_t count;
    if (i < sc->n && sc->s[i] == '/')
        i++;
    i = scan_tag_name(sc, i);
    if (i < 0)
        return -1;
    i = scan_attributes(sc, i, sc->light_most, &count);
    Py_ssize_t k = i;
    while (k < sc->n && (IS_WS(sc->s[k]) || sc->s[k] == '/'))
        k++;
    return k >= sc->n || sc->s[k] == '>' ? i : -1;
}

/* [^>]*+>? from ``i`` */
static Py_ssize_t
scan_to_gt(const Scan *sc, Py_ssize_t i)
{
    const unsigned char *gt = memchr(sc->s + i, '>', (size_t)(sc->n - i));
    return gt == NULL ? sc->n : gt - sc->s + 1;
}

/* whether -!?> stands at ``i`` */
static int
comment_close_rest(const Scan *sc, Py_ssize_t i)
{
    const unsigned char *s = sc->s;
    Py_ssize_t n = sc->n;
    if (i >= n || s[i] != '-')
        return 0;
    if (i + 1 < n && s[i + 1] == '>')
        return 2;
    return i + 2 < n && s[i + 1] == '!' && s[i + 2] == '>' ? 3 : 0;
}

/* after '<': _NOT_A_TAG, a comment, a bogus comment or a '<' that opens nothing */
static Py_ssize_t
scan_not_a_tag(const Scan *sc, Py_ssize_t i)
{
    const unsigned char *s = sc->s;
    Py_ssize_t n = sc->n;
    if (i + 2 < n && s[i] == '!' && s[i + 1] == '-' && s[i + 2] == '-') {
        /* !--(?:->|>|(?:[^-]++|-(?!-!?>))*+(?:--!?>|\Z)) */
        Py_ssize_t j = i + 3;
        if (j + 1 < n && s[j] == '-' && s[j + 1] == '>')
            return j + 2;
        if (j < n && s[j] == '>')
            return j + 1;
        for (;;) {
            const unsigned char *dash = memchr(s + j, '-', (size_t)(n - j));
            if (dash == NULL)
                return n;
            j = dash - s;
            int rest = comment_close_rest(sc, j + 1);
            if (rest)
                return j + 1 + rest;
            j++;
        }
    }
    if (i < n && (s[i] == '!' || s[i] == '?'))
        return scan_to_gt(sc, i + 1);
    if (i < n && s[i] == '/' && !(i + 1 < n && IS_LETTER(s[i + 1])))
        return scan_to_gt(sc, i + 1);
    if (i < n && (IS_LETTER(s[i]) || s[i] == '!' || s[i] == '?' || s[i] == '/'))
        return -1;
    const unsigned char *lt = memchr(s + i, '<', (size_t)(n - i));
    return lt == NULL ? n : lt - s;
}

/* _light_run from ``pos``: where it stops (the '<' of a tag of more than light_most attributes, or n) */
static Py_ssize_t
scan_light_run(const Scan *sc, Py_ssize_t pos)
{
    const unsigned char *s = sc->s;
    Py_ssize_t n = sc->n;
    while (pos < n) {
        const unsigned char *lt = memchr(s + pos, '<', (size_t)(n - pos));
        if (lt == NULL)
            return n;
        Py_ssize_t i = lt - s + 1, end = scan_end_tag(sc, i);
        if (end < 0)
            end = scan_raw(sc, i);
        if (end < 0)
            end = scan_plain(sc, i);
        if (end < 0)
            end = scan_light(sc, i);
        if (end < 0)
            end = scan_not_a_tag(sc, i);
        if (end < 0)
            return i - 1;
        pos = end;
    }
    return n;
}

PyDoc_STRVAR(attribute_counts_doc,
"attribute_counts(data, light_most, heavy_most, raw_names) -> list of int\n\n"
"limits.python_attribute_counts over the bytes ``data``: the attribute count (at most ``heavy_most``)\n"
"of every tag with more than ``light_most`` attributes, in page order; ``raw_names``: the elements whose\n"
"text is not markup (lower-case ASCII names, as bytes).");

static PyObject *
attribute_counts(PyObject *self, PyObject *args)
{
    Py_buffer data;
    Py_ssize_t light_most, heavy_most;
    PyObject *names;
    if (!PyArg_ParseTuple(args, "y*nnO!:attribute_counts", &data, &light_most, &heavy_most, &PyTuple_Type,
                          &names))
        return NULL;
    Scan sc = {.s = data.buf, .n = data.len, .light_most = light_most};
    PyObject *result = NULL;
    if (PyTuple_GET_SIZE(names) > MAX_RAW_NAMES) {
        PyErr_SetString(PyExc_ValueError, "attribute_counts(): too many raw_names");
        goto done;
    }
    for (Py_ssize_t r = 0; r < PyTuple_GET_SIZE(names); r++) {
        PyObject *name = PyTuple_GET_ITEM(names, r);
        if (!PyBytes_Check(name) || PyBytes_GET_SIZE(name) == 0) {
            PyErr_Format(PyExc_ValueError, "attribute_counts(): raw_names holds %R, not a name", name);
            goto done;
        }
        const char *chars = PyBytes_AS_STRING(name);
        for (Py_ssize_t k = 0; k < PyBytes_GET_SIZE(name); k++) {
            if (chars[k] < 'a' || chars[k] > 'z') {
                PyErr_Format(PyExc_ValueError, "attribute_counts(): raw name %R is not lower-case ASCII",
                             name);
                goto done;
            }
        }
        sc.raw[r] = chars;
        sc.raw_len[r] = PyBytes_GET_SIZE(name);
    }
    sc.raw_count = (int)PyTuple_GET_SIZE(names);
    result = PyList_New(0);
    if (result == NULL)
        goto done;
    Py_ssize_t pos = 0;
    for (;;) {
        pos = scan_light_run(&sc, pos);
        if (pos >= sc.n)
            break;
        /* _heavy_tag: </?[A-Za-z][^WS/>]*+(?:_ATTRIBUTE){0,heavy_most}+ (the light run stopped at one) */
        Py_ssize_t i = pos + 1, count;
        if (i < sc.n && sc.s[i] == '/')
            i++;
        i = scan_tag_name(&sc, i);
        if (i < 0) { /* (cannot happen: the light run takes every other '<') */
            PyErr_SetString(PyExc_SystemError, "attribute_counts(): the scan stopped at no tag");
            Py_CLEAR(result);
            goto done;
        }
        i = scan_attributes(&sc, i, heavy_most, &count);
        PyObject *item = PyLong_FromSsize_t(count);
        if (item == NULL || PyList_Append(result, item) < 0) {
            Py_XDECREF(item);
            Py_CLEAR(result);
            goto done;
        }
        Py_DECREF(item);
        pos = i > pos + 1 ? i : pos + 1;
    }
done:
    PyBuffer_Release(&data);
    return result;
}

/* ---- the markup's cleaning: document.markup's byte searches in C ---------------------------------- */

/* bytes that are \s to a bytes pattern: [ \t\n\r\f\v] */
static int
is_space_byte(unsigned char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r');
}

/* the length of the end tag document._BODY_END takes at ``s`` ('<'), </(?:body|html)\s*> in any ASCII
 * case, or 0 */
static Py_ssize_t
body_end_at(const unsigned char *s, Py_ssize_t left)
{
    if (left < 7 || s[1] != '/')
        return 0;
    unsigned char a = s[2] | 0x20, b = s[3] | 0x20, c = s[4] | 0x20, d = s[5] | 0x20;
    if (!((a == 'b' && b == 'o' && c == 'd' && d == 'y') || (a == 'h' && b == 't' && c == 'm' && d == 'l')))
        return 0;
    Py_ssize_t k = 6;
    while (k < left && is_space_byte(s[k]))
        k++;
    return k < left && s[k] == '>' ? k + 1 : 0;
}

PyDoc_STRVAR(strip_body_ends_doc,
"strip_body_ends(data) -> bytes\n\n"
"``data`` without its </body> and </html> end tags (document._BODY_END.sub(b'', data)); ``data`` itself\n"
"when it has none.");

static PyObject *
strip_body_ends(PyObject *self, PyObject *arg)
{
    if (!PyBytes_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "strip_body_ends() needs bytes, got %R", arg);
        return NULL;
    }
    const unsigned char *s = (const unsigned char *)PyBytes_AS_STRING(arg);
    /* pos: where the search goes on; copied: the bytes of ``s`` before it are in ``out`` (kept of them) */
    Py_ssize_t n = PyBytes_GET_SIZE(arg), pos = 0, copied = 0, kept = 0;
    PyObject *result = NULL;
    unsigned char *out = NULL;
    for (;;) {
        const unsigned char *lt = memchr(s + pos, '<', (size_t)(n - pos));
        if (lt == NULL)
            break;
        Py_ssize_t at = lt - s, len = body_end_at(lt, n - at);
        if (len == 0) {
            pos = at + 1;
            continue;
        }
        if (result == NULL) { /* the first one: the result can be no longer than the page */
            result = PyBytes_FromStringAndSize(NULL, n);
            if (result == NULL)
                return NULL;
            out = (unsigned char *)PyBytes_AS_STRING(result);
        }
        memcpy(out + kept, s + copied, (size_t)(at - copied));
        kept += at - copied;
        pos = copied = at + len;
    }
    if (result == NULL) {
        Py_INCREF(arg);
        return arg;
    }
    memcpy(out + kept, s + copied, (size_t)(n - copied));
    kept += n - copied;
    if (_PyBytes_Resize(&result, kept) < 0)
        return NULL;
    return result;
}

/* the value of the digits s[0:len] in ``base`` (10 or 16), or -1 above 65,535 */
static long
reference_value(const unsigned char *s, Py_ssize_t len, int base)
{
    long value = 0;
    for (Py_ssize_t k = 0; k < len; k++) {
        unsigned char c = s[k];
        int digit = c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
        value = value * base + digit;
        if (value > 65535)
            return -1;
    }
    return value;
}

/* whether ``value`` is a character document._CONTROL_NUMBER removes: C0 controls but tab, LF and CR,
 * DEL, and the noncharacters U+FFFE and U+FFFF */
static int
is_control_value(long value)
{
    return (value >= 0 && value <= 31 && value != 9 && value != 10 && value != 13) || value == 127
           || value == 65534 || value == 65535;
}

PyDoc_STRVAR(has_control_reference_doc,
"has_control_reference(data) -> bool\n\n"
"Whether the bytes ``data`` hold a character reference document._CONTROL_NUMBER matches (&#27;,\n"
"&#x1B;, &#65535;: a whole run of digits naming a control character or a noncharacter).");

static PyObject *
has_control_reference(PyObject *self, PyObject *arg)
{
    Py_buffer data;
    if (PyObject_GetBuffer(arg, &data, PyBUF_SIMPLE) < 0)
        return NULL;
    const unsigned char *s = data.buf;
    Py_ssize_t n = data.len, pos = 0;
    int found = 0;
    while (!found) {
        const unsigned char *amp = memchr(s + pos, '&', (size_t)(n - pos));
        if (amp == NULL)
            break;
        Py_ssize_t i = amp - s + 1;
        pos = i;
        if (i >= n || s[i] != '#')
            continue;
        i++;
        int base = 10;
        if (i < n && (s[i] | 0x20) == 'x') {
            base = 16;
            i++;
        }
        Py_ssize_t start = i;
        while (i < n && (base == 10 ? (s[i] >= '0' && s[i] <= '9')
                                    : ((s[i] >= '0' && s[i] <= '9') || ((s[i] | 0x20) >= 'a'
                                                                        && (s[i] | 0x20) <= 'f'))))
            i++;
        if (i == start)
            continue;
        found = is_control_value(reference_value(s + start, i - start, base));
    }
    PyBuffer_Release(&data);
    return PyBool_FromLong(found);
}

PyDoc_STRVAR(count_byte_doc,
"count_byte(data, byte) -> int\n\n"
"How many times the byte ``byte`` (0-255) stands in the bytes ``data``: data.count(bytes([byte])), in a\n"
"loop the compiler vectorizes (bytes.count reads one byte at a time for a one-byte needle).");

static PyObject *
count_byte(PyObject *self, PyObject *args)
{
    Py_buffer data;
    int byte;
    if (!PyArg_ParseTuple(args, "y*i:count_byte", &data, &byte))
        return NULL;
    if (byte < 0 || byte > 255) {
        PyBuffer_Release(&data);
        PyErr_Format(PyExc_ValueError, "count_byte(): byte must be in 0..255, got %d", byte);
        return NULL;
    }
    const unsigned char *s = data.buf, c = (unsigned char)byte;
    Py_ssize_t n = data.len, count = 0;
    /* in blocks of 255 bytes, whose count fits a byte: the compiler adds 16 bytes' matches at once */
    Py_ssize_t i = 0;
    for (; n - i >= 255; i += 255) {
        unsigned char block = 0;
        for (int k = 0; k < 255; k++)
            block += s[i + k] == c;
        count += block;
    }
    for (; i < n; i++)
        count += s[i] == c;
    PyBuffer_Release(&data);
    return PyLong_FromSsize_t(count);
}

/* ---- paragraphs: document.python_paragraphs in C ---------------------------------------------------- */

/* a growable byte buffer, NUL-terminated */
typedef struct {
    unsigned char *data;
    Py_ssize_t len, size;
} Bytes;

static int
bytes_reserve(Bytes *b, Py_ssize_t more)
{
    if (b->len + more + 1 <= b->size)
        return 0;
    Py_ssize_t size = b->size ? b->size : 256;
    while (size < b->len + more + 1)
        size *= 2;
    unsigned char *data = PyMem_Realloc(b->data, (size_t)size);
    if (data == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    b->data = data;
    b->size = size;
    return 0;
}

/* lxml's .text (``node`` an element's .children) or .tail (its .next), appended: the run of text and
 * CDATA nodes starting there */
static int
append_run(Bytes *b, const xmlNode *node)
{
    for (node = text_node_or_skip(node); node != NULL; node = text_node_or_skip(node->next)) {
        if (node->content == NULL)
            continue;
        Py_ssize_t n = (Py_ssize_t)strlen((const char *)node->content);
        if (bytes_reserve(b, n) < 0)
            return -1;
        memcpy(b->data + b->len, node->content, (size_t)n);
        b->len += n;
        b->data[b->len] = 0;
    }
    return 0;
}

/* the bytes of the white space character (to str.split()) at ``s``, 0 when it is none; ``s`` is
 * NUL-terminated UTF-8 */
static int
space_bytes(const unsigned char *s)
{
    unsigned char c = s[0];
    if (c < 0x80)
        return (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x20);
    if (byte_count[c] != SPECIAL || !special_space(s))
        return 0;
    return c == 0xc2 ? 2 : 3;
}

typedef struct {
    Bytes buf;   /* the pieces of the paragraph being read */
    Bytes out;   /* the paragraphs read, collapsed, one after another */
    Py_ssize_t *ends; /* where each paragraph ends in ``out`` */
    Py_ssize_t nlines, lines_size;
} Paragraphs;

/* the paragraph of the pieces read so far, white space collapsed as " ".join(text.split()) does, kept
 * when not empty; the pieces are cleared */
static int
flush_paragraph(Paragraphs *p)
{
    if (p->buf.len == 0)
        return 0;
    if (bytes_reserve(&p->out, p->buf.len) < 0)
        return -1;
    const unsigned char *s = p->buf.data, *end = s + p->buf.len;
    unsigned char *o = p->out.data + p->out.len, *first = o;
    int gap = 0;
    while (s < end) {
        int w = space_bytes(s);
        if (w) {
            gap = 1;
            s += w;
            continue;
        }
        if (gap && o != first)
            *o++ = ' ';
        gap = 0;
        *o++ = *s++;
    }
    p->buf.len = 0;
    if (o == first)
        return 0;
    p->out.len = o - p->out.data;
    if (p->nlines == p->lines_size) {
        Py_ssize_t size = p->lines_size ? 2 * p->lines_size : 64;
        Py_ssize_t *ends = PyMem_Realloc(p->ends, (size_t)size * sizeof(Py_ssize_t));
        if (ends == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        p->ends = ends;
        p->lines_size = size;
    }
    p->ends[p->nlines++] = p->out.len;
    return 0;
}

/* the nodes lxml's iterwalk reports: elements and entity references (not comments, not processing
 * instructions, whose tails are then no piece of the text) */
static const xmlNode *
walked_or_next(const xmlNode *node)
{
    while (node != NULL && node->type != XML_ELEMENT_NODE && node->type != XML_ENTITY_REF_NODE)
        node = node->next;
    return node;
}

static int
compare_nodes(const void *a, const void *b)
{
    const xmlNode *x = *(const xmlNode *const *)a, *y = *(const xmlNode *const *)b;
    return x < y ? -1 : x > y;
}

/* 1 for a block tag, 0 for another, -1 with an exception set */
static int
is_block(TagTable *t, const xmlNode *node, PyObject *block_tags)
{
    Py_ssize_t k = tags_entry(t, node);
    if (k < 0)
        return -1;
    TagEntry *e = &t->entries[k];
    if (!(e->flags & LOOKED_UP)) {
        int found = PySet_Contains(block_tags, e->str);
        if (found < 0)
            return -1;
        e->flags |= LOOKED_UP | (found ? IS_BLOCK : 0);
    }
    return (e->flags & IS_BLOCK) != 0;
}

PyDoc_STRVAR(paragraphs_doc,
"paragraphs(node, skip, block_tags) -> list[str] | None\n\n"
"document.python_paragraphs(node, skip, block_tags): the text under the element ``node`` as paragraphs,\n"
"the elements of ``skip`` (a set, frozenset, tuple or list of elements) left out, ``block_tags`` (a set or\n"
"frozenset of tags) and <br> splitting. None when ``skip`` holds anything but elements or ``node`` is a\n"
"comment or the like (the Python function answers).");

static PyObject *
paragraphs(PyObject *self, PyObject *args)
{
    PyObject *node_obj, *skip, *block_tags;
    if (!PyArg_ParseTuple(args, "OOO:paragraphs", &node_obj, &skip, &block_tags))
        return NULL;
    if (!is_element(node_obj)) {
        PyErr_Format(PyExc_TypeError, "paragraphs() needs an lxml element, got %R", node_obj);
        return NULL;
    }
    if (!PyAnySet_Check(block_tags)) {
        PyErr_Format(PyExc_TypeError, "paragraphs() needs a set of block tags, got %R", block_tags);
        return NULL;
    }
    if (!PyAnySet_Check(skip) && !PyTuple_Check(skip) && !PyList_Check(skip)) {
        PyErr_Format(PyExc_TypeError, "paragraphs() needs a set, tuple or list to skip, got %R", skip);
        return NULL;
    }
    const xmlNode *root = NODE_OF(node_obj);
    if (root == NULL || root->type != XML_ELEMENT_NODE) /* a comment, an entity: the Python walk reads it */
        Py_RETURN_NONE;
    /* the nodes to skip, sorted for a binary search (no Python code runs in a set's or list's iteration) */
    Py_ssize_t nskip = PyObject_Size(skip), k = 0;
    if (nskip < 0)
        return NULL;
    const xmlNode **skipped = PyMem_Malloc((size_t)(nskip ? nskip : 1) * sizeof(xmlNode *));
    if (skipped == NULL)
        return PyErr_NoMemory();
    PyObject *iter = PyObject_GetIter(skip), *item;
    if (iter == NULL) {
        PyMem_Free(skipped);
        return NULL;
    }
    int foreign = 0;
    while ((item = PyIter_Next(iter)) != NULL) {
        if (!is_element(item) || k >= nskip)
            foreign = 1;
        else
            skipped[k++] = NODE_OF(item);
        Py_DECREF(item);
    }
    Py_DECREF(iter);
    if (PyErr_Occurred() || foreign) {
        PyMem_Free(skipped);
        if (PyErr_Occurred())
            return NULL;
        Py_RETURN_NONE;
    }
    nskip = k;
    qsort(skipped, (size_t)nskip, sizeof(xmlNode *), compare_nodes);

    Paragraphs p = {{NULL, 0, 0}, {NULL, 0, 0}, NULL, 0, 0};
    TagTable tags_table = {NULL, 0, NULL, 0};
    PyObject *result = NULL;
    if (tags_init(&tags_table) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    int block;
    /* the root's start */
    if ((block = is_block(&tags_table, root, block_tags)) < 0)
        goto done;
    if ((block && flush_paragraph(&p) < 0) || append_run(&p.buf, root->children) < 0)
        goto done;
    const xmlNode *node = walked_or_next(root->children);
    if (node == NULL) {
        if (block && flush_paragraph(&p) < 0)
            goto done;
    }
    while (node != NULL) {
        /* ``node``'s start: its subtree is read, or it is left (skipped, not an element, no children) */
        int descend = 0;
        if (node->type == XML_ELEMENT_NODE) {
            if ((block = is_block(&tags_table, node, block_tags)) < 0)
                goto done;
            if (nskip && bsearch(&node, skipped, (size_t)nskip, sizeof(xmlNode *), compare_nodes) != NULL) {
                if ((block && flush_paragraph(&p) < 0) || append_run(&p.buf, node->next) < 0)
                    goto done;
            } else {
                if ((block && flush_paragraph(&p) < 0) || append_run(&p.buf, node->children) < 0)
                    goto done;
                const xmlNode *child = walked_or_next(node->children);
                if (child != NULL) {
                    node = child;
                    descend = 1;
                } else if ((block && flush_paragraph(&p) < 0) || append_run(&p.buf, node->next) < 0)
                    goto done; /* its end */
            }
        } else if (append_run(&p.buf, node->next) < 0) /* an entity reference: its tail */
            goto done;
        if (descend)
            continue;
        /* on to the next sibling, ending the elements left on the way up */
        for (;;) {
            const xmlNode *next = walked_or_next(node->next);
            if (next != NULL) {
                node = next;
                break;
            }
            node = node->parent;
            if ((block = is_block(&tags_table, node, block_tags)) < 0)
                goto done;
            if (block && flush_paragraph(&p) < 0)
                goto done;
            if (node == root) {
                node = NULL;
                break;
            }
            if (append_run(&p.buf, node->next) < 0)
                goto done;
        }
    }
    if (flush_paragraph(&p) < 0)
        goto done;

    /* the walk is over: the list is made */
    result = PyList_New(p.nlines);
    if (result == NULL)
        goto done;
    Py_ssize_t start = 0;
    for (Py_ssize_t j = 0; j < p.nlines; j++) {
        PyObject *line = PyUnicode_DecodeUTF8((const char *)p.out.data + start, p.ends[j] - start, NULL);
        if (line == NULL) {
            Py_CLEAR(result);
            goto done;
        }
        PyList_SET_ITEM(result, j, line);
        start = p.ends[j];
    }
done:
    tags_free(&tags_table);
    PyMem_Free(p.buf.data);
    PyMem_Free(p.out.data);
    PyMem_Free(p.ends);
    PyMem_Free(skipped);
    return result;
}

PyDoc_STRVAR(count_tags_doc,
"count_tags(root, names) -> int\n\n"
"sum(1 for _ in root.iter(*names)): the elements in ``root``'s subtree, itself included, whose tag is in\n"
"the set ``names``, counted without a Python object for each.");

static PyObject *
count_tags(PyObject *self, PyObject *args)
{
    PyObject *root_obj, *names;
    if (!PyArg_ParseTuple(args, "OO:count_tags", &root_obj, &names))
        return NULL;
    if (!is_element(root_obj)) {
        PyErr_Format(PyExc_TypeError, "count_tags() needs an lxml element, got %R", root_obj);
        return NULL;
    }
    if (!PyAnySet_Check(names)) {
        PyErr_Format(PyExc_TypeError, "count_tags() needs a set of names, got %R", names);
        return NULL;
    }
    const xmlNode *root = NODE_OF(root_obj);
    if (root == NULL || root->type != XML_ELEMENT_NODE) {
        PyErr_SetString(PyExc_ValueError, "count_tags(): the element has no element node");
        return NULL;
    }
    TagTable tags_table = {NULL, 0, NULL, 0};
    if (tags_init(&tags_table) < 0)
        return PyErr_NoMemory();
    Py_ssize_t count = 0, depth = 0;
    const xmlNode *node = root;
    while (node != NULL) {
        /* by its tag: a name without a namespace is no namespaced element's, as in lxml's iter() */
        Py_ssize_t k = tags_entry(&tags_table, node);
        if (k < 0) {
            tags_free(&tags_table);
            return NULL;
        }
        TagEntry *e = &tags_table.entries[k];
        if (!(e->flags & LOOKED_UP)) {
            int found = PySet_Contains(names, e->str);
            if (found < 0) {
                tags_free(&tags_table);
                return NULL;
            }
            e->flags |= LOOKED_UP | (found ? IS_BLOCK : 0);
        }
        count += (e->flags & IS_BLOCK) != 0;
        node = preorder_next(node, root, &depth);
    }
    tags_free(&tags_table);
    return PyLong_FromSsize_t(count);
}

PyDoc_STRVAR(has_stripped_byte_doc,
"has_stripped_byte(data) -> bool\n\n"
"Whether the bytes ``data`` hold a C0 control byte other than tab, line feed, form feed, carriage return\n"
"and escape, or DEL (decode._STRIPPED_BYTES): any(byte in data for byte in _STRIPPED_SINGLES) in one pass,\n"
"16 bytes at a time (SSE2; else 8 at a time).");

static int
stripped_byte(unsigned char c)
{
    return (c < 0x20 && c != '\t' && c != '\n' && c != '\f' && c != '\r' && c != 0x1b) || c == 0x7f;
}

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static PyObject *
has_stripped_byte(PyObject *self, PyObject *arg)
{
    Py_buffer data;
    if (PyObject_GetBuffer(arg, &data, PyBUF_SIMPLE) < 0)
        return NULL;
    const unsigned char *s = data.buf;
    Py_ssize_t n = data.len, i = 0;
    int found = 0;
#if defined(__SSE2__)
    /* 16 bytes at a time: below 0x20 (compared signed once 0x80 is flipped) and none of the five kept,
     * or DEL */
    const __m128i flip = _mm_set1_epi8((char)0x80), below = _mm_set1_epi8((char)(0x20 ^ 0x80)),
                  tab = _mm_set1_epi8('\t'), lf = _mm_set1_epi8('\n'), ff = _mm_set1_epi8('\f'),
                  cr = _mm_set1_epi8('\r'), esc = _mm_set1_epi8(0x1b), del = _mm_set1_epi8(0x7f);
    for (; !found && n - i >= 16; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(s + i));
        __m128i control = _mm_cmplt_epi8(_mm_xor_si128(v, flip), below);
        __m128i kept = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, tab), _mm_cmpeq_epi8(v, lf)),
                                    _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, ff), _mm_cmpeq_epi8(v, cr)),
                                                 _mm_cmpeq_epi8(v, esc)));
        __m128i bad = _mm_or_si128(_mm_andnot_si128(kept, control), _mm_cmpeq_epi8(v, del));
        found = _mm_movemask_epi8(bad) != 0;
    }
#else
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    for (; !found && n - i >= 8; i += 8) {
        uint64_t x;
        memcpy(&x, s + i, 8);
        /* a byte below 0x20 or equal to 0x7f sets its high bit in one of the two (exact as a yes/no) */
        uint64_t low = (x - ones * 0x20) & ~x & highs;
        uint64_t y = x ^ (ones * 0x7f);
        uint64_t del = (y - ones) & ~y & highs;
        if (low | del) {
            for (int k = 0; k < 8; k++)
                found |= stripped_byte(s[i + k]);
        }
    }
#endif
    for (; !found && i < n; i++)
        found = stripped_byte(s[i]);
    PyBuffer_Release(&data);
    return PyBool_FromLong(found);
}

PyDoc_STRVAR(may_hold_attribute_doc,
"may_hold_attribute(root, name, value) -> bool\n\n"
"False when no element of ``root``'s subtree, itself included, has an attribute ``name`` (in any namespace)\n"
"whose value is ``value``: an XPath testing ``@name = 'value'`` there finds nothing. True when one has, or\n"
"when an attribute of that name holds more than one text node (the XPath then decides).");

static PyObject *
may_hold_attribute(PyObject *self, PyObject *args)
{
    PyObject *root_obj;
    const char *name, *value;
    if (!PyArg_ParseTuple(args, "Oss:may_hold_attribute", &root_obj, &name, &value))
        return NULL;
    if (!is_element(root_obj)) {
        PyErr_Format(PyExc_TypeError, "may_hold_attribute() needs an lxml element, got %R", root_obj);
        return NULL;
    }
    const xmlNode *root = NODE_OF(root_obj);
    if (root == NULL || root->type != XML_ELEMENT_NODE)
        Py_RETURN_TRUE;
    Py_ssize_t depth = 0;
    for (const xmlNode *node = root; node != NULL; node = preorder_next(node, root, &depth)) {
        for (const xmlAttr *attr = node->properties; attr != NULL; attr = attr->next) {
            if (attr->name == NULL || strcmp((const char *)attr->name, name) != 0)
                continue;
            const xmlNode *text = attr->children;
            if (text == NULL) { /* the empty value */
                if (value[0] == '\0')
                    Py_RETURN_TRUE;
                continue;
            }
            if (text->type != XML_TEXT_NODE || text->next != NULL || text->content == NULL
                || strcmp((const char *)text->content, value) == 0)
                Py_RETURN_TRUE;
        }
    }
    Py_RETURN_FALSE;
}

/* ---- the module ---------------------------------------------------------------------------------- */

static PyMethodDef methods[] = {
    {"walk", walk, METH_VARARGS, walk_doc},
    {"attribute_values", attribute_values, METH_VARARGS, attribute_values_doc},
    {"tree_counts", tree_counts, METH_VARARGS, tree_counts_doc},
    {"attribute_counts", attribute_counts, METH_VARARGS, attribute_counts_doc},
    {"strip_body_ends", strip_body_ends, METH_O, strip_body_ends_doc},
    {"has_control_reference", has_control_reference, METH_O, has_control_reference_doc},
    {"count_byte", count_byte, METH_VARARGS, count_byte_doc},
    {"paragraphs", paragraphs, METH_VARARGS, paragraphs_doc},
    {"count_tags", count_tags, METH_VARARGS, count_tags_doc},
    {"has_stripped_byte", has_stripped_byte, METH_O, has_stripped_byte_doc},
    {"may_hold_attribute", may_hold_attribute, METH_VARARGS, may_hold_attribute_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "newscrawl.extract._cstats",
    "The per-element statistics pass in C (newscrawl.extract.stats holds the reference).", -1, methods,
};

PyMODINIT_FUNC
PyInit__cstats(void)
{
    init_byte_count();
    init_scan_class();
    PyObject *etree = PyImport_ImportModule("lxml.etree");
    if (etree == NULL)
        return NULL;
    PyObject *type = PyObject_GetAttrString(etree, "_Element");
    if (type == NULL || !PyType_Check(type)) {
        Py_XDECREF(type);
        Py_DECREF(etree);
        PyErr_SetString(PyExc_ImportError, "lxml.etree._Element is not a type");
        return NULL;
    }
    element_type = (PyTypeObject *)type; /* kept for the module's life */
    /* the struct layout this was built against, checked on a fresh element before any page */
    PyObject *probe = PyObject_CallMethod(etree, "Element", "s", "cwalk-probe");
    Py_DECREF(etree);
    if (probe == NULL)
        return NULL;
    const xmlNode *node = is_element(probe) ? NODE_OF(probe) : NULL;
    int ok = node != NULL && node->type == XML_ELEMENT_NODE && node->name != NULL
             && strcmp((const char *)node->name, "cwalk-probe") == 0 && node->children == NULL;
    Py_DECREF(probe);
    if (!ok) {
        PyErr_SetString(PyExc_ImportError, "lxml's element layout differs from the one built against");
        return NULL;
    }
    return PyModule_Create(&module);
}
