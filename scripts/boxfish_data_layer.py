"""Times LLNL Boxfish's own data layer, for the speed comparison of issue 27 (Python 2.7 with
numpy 1.16 and PyYAML 5.4; PySide is stubbed: only Qt's item-model bookkeeping is replaced).

    python2 scripts/boxfish_data_layer.py BOXFISH_CHECKOUT META REGION THRESHOLD [load]

Loads the run as Boxfish's DataTree.insertRun does (its YAML tables through numpy.loadtxt, its
projections), then answers what `shoal query META --domain links --where 'netWrites > THRESHOLD'
--where 'code_region = REGION' --attr packets` prints: the link rows of that region whose source
node passes the node filter, mean packets per link. With `load`, it stops after the load.
Run it from the folder holding META (Boxfish's example-data/). Prints the times on stderr."""
import sys, time, types, os
mod = types.ModuleType
class _Any(object):
    def __init__(self, *a, **k): pass
    def __getattr__(self, n): return lambda *a, **k: None
pyside = mod('PySide'); core = mod('PySide.QtCore'); gui = mod('PySide.QtGui')
class QAbstractItemModel(object):
    def __init__(self, *a): pass
    def beginInsertRows(self, *a): pass
    def endInsertRows(self): pass
    def createIndex(self, row, col, item): return QModelIndex(item)
class QModelIndex(object):
    def __init__(self, item=None): self._item = item
    def isValid(self): return self._item is not None
    def internalPointer(self): return self._item
class Signal(object):
    def __init__(self, *a, **k): pass
for m in (core, gui):
    m.QAbstractItemModel = QAbstractItemModel; m.QModelIndex = QModelIndex
    m.Qt = _Any(); m.QMimeData = object; m.QObject = object; m.Signal = Signal; m.Slot = lambda *a, **k: (lambda f: f)
core.__all__ = ['QAbstractItemModel', 'QModelIndex', 'Qt', 'QMimeData', 'QObject', 'Signal', 'Slot']
gui.__all__ = []
sys.modules.update({'PySide': pyside, 'PySide.QtCore': core, 'PySide.QtGui': gui})
sys.path.insert(0, os.path.join(sys.argv[1], 'boxfish'))
t0 = time.time()
import DataModel
from Query import Clause, TableAttribute
meta, region, threshold = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
tree = DataModel.DataTree()
tree.insertRun(meta)
run = tree._rootItem._children[-1]
t1 = time.time()
if len(sys.argv) > 5 and sys.argv[5] == 'load':
    print >> sys.stderr, 'load %.3f s' % (t1 - t0); sys.exit(0)
links = [t for g in run._children for t in g._children if getattr(t, 'name', '') .endswith('links.yaml')][0]
cond = Clause('and', Clause('>', TableAttribute('netWrites'), threshold),
              Clause('=', TableAttribute('code_region'), region))
ids = links.evaluate(cond, links._table.identifiers())
vals, keys = links._table.group_attributes_by_attributes(ids, ['linkid'], ['packets'], 'mean')
t2 = time.time()
print >> sys.stderr, 'load %.3f s, query %.3f s, total %.3f s, %d links' % (t1 - t0, t2 - t1, t2 - t0, len(vals))
