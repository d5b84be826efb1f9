/*
 * _millkernel: the one hot function of the mill engine, in C.
 *
 * QuietCore(...).step(m0, m1, turn, src, dst, opp_hand) does exactly what
 * MillRules.quiet_core_py does in engine/rules/mills.py (the reference, and the fallback on a
 * machine without a compiler): move the mover's man from src (-1: from hand) to dst; if that
 * completes a counting line return None (the general Python path handles removals and wins);
 * otherwise return ((m0, m1), opponent's legal steps, repetition key).
 *
 * The steps handed out are the ruleset's own interned Step objects, in the same order the
 * Python code produces them; tests replay random games through both and compare every result.
 * No rule lives here that is not also in the Python code.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#define MAXP 32
#define MAXL 12

typedef struct {
    PyObject_HEAD
    int n;
    uint32_t full;
    uint32_t adj[MAXP];
    int nlines[2][MAXP];
    uint32_t lines[2][MAXP][MAXL];
    PyObject *move[MAXP][MAXP]; /* borrowed from `keep` */
    PyObject *place[MAXP];      /* borrowed from `keep` */
    int fly_always;
    int fly_at_three;
    PyObject *keep; /* (move rows, place tuple): keeps the Step objects alive */
} QuietCore;

static void QuietCore_dealloc(QuietCore *self) {
    Py_XDECREF(self->keep);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int read_u32(PyObject *o, uint32_t *out) {
    unsigned long v = PyLong_AsUnsignedLong(o);
    if (v == (unsigned long)-1 && PyErr_Occurred()) return -1;
    *out = (uint32_t)v;
    return 0;
}

static int QuietCore_init(QuietCore *self, PyObject *args, PyObject *kwds) {
    int n, fly_always, fly_at_three;
    unsigned long full;
    PyObject *adj, *lines, *move, *place;
    if (!PyArg_ParseTuple(args, "ikOOOOpp", &n, &full, &adj, &lines, &move, &place, &fly_always, &fly_at_three))
        return -1;
    if (n <= 0 || n > MAXP) {
        PyErr_SetString(PyExc_ValueError, "board too large for the mill kernel");
        return -1;
    }
    if (!PyTuple_Check(adj) || PyTuple_GET_SIZE(adj) != n || !PyTuple_Check(lines) || PyTuple_GET_SIZE(lines) != 2 ||
        !PyTuple_Check(move) || PyTuple_GET_SIZE(move) != n || !PyTuple_Check(place) || PyTuple_GET_SIZE(place) != n) {
        PyErr_SetString(PyExc_ValueError, "mill kernel tables have the wrong shape");
        return -1;
    }
    self->n = n;
    self->full = (uint32_t)full;
    self->fly_always = fly_always;
    self->fly_at_three = fly_at_three;
    for (int i = 0; i < n; i++) {
        if (read_u32(PyTuple_GET_ITEM(adj, i), &self->adj[i]) < 0) return -1;
        self->place[i] = PyTuple_GET_ITEM(place, i);
        PyObject *row = PyTuple_GET_ITEM(move, i);
        if (!PyTuple_Check(row) || PyTuple_GET_SIZE(row) != n) {
            PyErr_SetString(PyExc_ValueError, "mill kernel move table has the wrong shape");
            return -1;
        }
        for (int j = 0; j < n; j++) self->move[i][j] = PyTuple_GET_ITEM(row, j);
    }
    for (int p = 0; p < 2; p++) {
        PyObject *per = PyTuple_GET_ITEM(lines, p);
        if (!PyTuple_Check(per) || PyTuple_GET_SIZE(per) != n) {
            PyErr_SetString(PyExc_ValueError, "mill kernel line table has the wrong shape");
            return -1;
        }
        for (int i = 0; i < n; i++) {
            PyObject *at = PyTuple_GET_ITEM(per, i);
            Py_ssize_t k = PyTuple_Check(at) ? PyTuple_GET_SIZE(at) : -1;
            if (k < 0 || k > MAXL) {
                PyErr_SetString(PyExc_ValueError, "mill kernel: too many lines through one point");
                return -1;
            }
            self->nlines[p][i] = (int)k;
            for (Py_ssize_t l = 0; l < k; l++)
                if (read_u32(PyTuple_GET_ITEM(at, l), &self->lines[p][i][l]) < 0) return -1;
        }
    }
    Py_XSETREF(self->keep, PyTuple_Pack(2, move, place));
    return self->keep ? 0 : -1;
}

static inline int lowest(uint32_t m) { return __builtin_ctz(m); }

static PyObject *QuietCore_step(QuietCore *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "step(m0, m1, turn, src, dst, opp_hand)");
        return NULL;
    }
    uint32_t m0, m1;
    if (read_u32(args[0], &m0) < 0 || read_u32(args[1], &m1) < 0) return NULL;
    long turn = PyLong_AsLong(args[2]), src = PyLong_AsLong(args[3]), dst = PyLong_AsLong(args[4]);
    long opp_hand = PyLong_AsLong(args[5]);
    if (PyErr_Occurred()) return NULL;
    if (turn < 0 || turn > 1 || dst < 0 || dst >= self->n || src >= self->n) {
        PyErr_SetString(PyExc_ValueError, "mill kernel: argument out of range");
        return NULL;
    }
    uint32_t own = turn ? m1 : m0;
    if (src >= 0) own &= ~(1u << src);
    own |= 1u << dst;
    for (int l = 0; l < self->nlines[turn][dst]; l++) {
        uint32_t lm = self->lines[turn][dst][l];
        if ((own & lm) == lm) Py_RETURN_NONE;
    }
    if (turn) m1 = own; else m0 = own;
    int opp = 1 - (int)turn;
    uint32_t theirs = opp ? m1 : m0;
    uint32_t empty = self->full & ~(m0 | m1);

    PyObject *buf[MAXP * MAXP];
    Py_ssize_t count = 0;
    if (opp_hand) {
        for (uint32_t e = empty; e; e &= e - 1) buf[count++] = self->place[lowest(e)];
    } else if (self->fly_always || (self->fly_at_three && __builtin_popcount(theirs) == 3)) {
        for (uint32_t t = theirs; t; t &= t - 1) {
            int i = lowest(t);
            for (uint32_t e = empty; e; e &= e - 1) buf[count++] = self->move[i][lowest(e)];
        }
    } else {
        for (uint32_t t = theirs; t; t &= t - 1) {
            int i = lowest(t);
            for (uint32_t m = self->adj[i] & empty; m; m &= m - 1) buf[count++] = self->move[i][lowest(m)];
        }
    }
    PyObject *legal = PyTuple_New(count);
    if (!legal) return NULL;
    for (Py_ssize_t k = 0; k < count; k++) {
        Py_INCREF(buf[k]);
        PyTuple_SET_ITEM(legal, k, buf[k]);
    }
    unsigned long long key = ((((unsigned long long)opp << self->n) | m0) << self->n) | m1;
    return Py_BuildValue("((kk)NK)", (unsigned long)m0, (unsigned long)m1, legal, key);
}

static PyMethodDef QuietCore_methods[] = {
    {"step", (PyCFunction)(void (*)(void))QuietCore_step, METH_FASTCALL,
     "step(m0, m1, turn, src, dst, opp_hand) -> None | ((m0, m1), legal_steps, key)"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject QuietCoreType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "engine.rules._millkernel.QuietCore",
    .tp_basicsize = sizeof(QuietCore),
    .tp_dealloc = (destructor)QuietCore_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Tables of one mill ruleset and its quiet-step function (see mills.quiet_core_py).",
    .tp_methods = QuietCore_methods,
    .tp_init = (initproc)QuietCore_init,
    .tp_new = PyType_GenericNew,
};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "_millkernel", "C kernel for the mill engine's quiet steps.", -1, NULL,
};

PyMODINIT_FUNC PyInit__millkernel(void) {
    if (PyType_Ready(&QuietCoreType) < 0) return NULL;
    PyObject *m = PyModule_Create(&moduledef);
    if (!m) return NULL;
    Py_INCREF(&QuietCoreType);
    if (PyModule_AddObject(m, "QuietCore", (PyObject *)&QuietCoreType) < 0) {
        Py_DECREF(&QuietCoreType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
