//===- SyncFormBarriers.cpp - GPU ops in sync form among token chains -----===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//
//
// See SyncFormBarriers.h for the problem. The lattice is small (a program
// has at most SDFGDialect::getMaxStreamSlots() streams), so it is kept as
// sorted vectors of stream indices.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Analysis/SyncFormBarriers.h"
#include "SDFGStream/Analysis/HostGpuAccesses.h"

#include "mlir/Analysis/DataFlow/Utils.h"
#include "mlir/Analysis/DataFlowFramework.h"

using namespace mlir;
using namespace mlir::sdfg;

namespace {
/// open and barrier (SyncFormBarriers.h) at a program point; streams by
/// their index in the program's stream list.
struct BarrierState {
  SmallVector<unsigned> open;
  SmallVector<std::pair<unsigned, unsigned>> barrier;

  bool operator==(const BarrierState &other) const {
    return open == other.open && barrier == other.barrier;
  }
  template <typename T> static bool insert(SmallVectorImpl<T> &set, T x) {
    auto *at = llvm::lower_bound(set, x);
    if (at != set.end() && *at == x)
      return false;
    set.insert(at, x);
    return true;
  }
  bool join(const BarrierState &other) {
    bool changed = false;
    for (unsigned s : other.open)
      changed |= insert(open, s);
    for (auto pair : other.barrier)
      changed |= insert(barrier, pair);
    return changed;
  }
};

class BarrierLattice : public dataflow::AbstractDenseLattice {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(BarrierLattice)
  using AbstractDenseLattice::AbstractDenseLattice;

  ChangeResult join(const AbstractDenseLattice &rhs) override {
    return state.join(static_cast<const BarrierLattice &>(rhs).state)
               ? ChangeResult::Change
               : ChangeResult::NoChange;
  }
  ChangeResult set(BarrierState next) {
    if (state == next)
      return ChangeResult::NoChange;
    state = std::move(next);
    return ChangeResult::Change;
  }
  void print(raw_ostream &os) const override {
    os << "open {";
    llvm::interleaveComma(state.open, os);
    os << "} barrier {";
    llvm::interleaveComma(state.barrier, os, [&](auto pair) {
      os << pair.first << "->" << pair.second;
    });
    os << "}";
  }
  BarrierState state;
};

class BarrierAnalysis
    : public dataflow::DenseForwardDataFlowAnalysis<BarrierLattice> {
public:
  BarrierAnalysis(DataFlowSolver &solver,
                  const DenseMap<Operation *, BarrierRole> &roles,
                  ArrayRef<Value> streams)
      : DenseForwardDataFlowAnalysis(solver), roles(roles), streams(streams) {}

  /// The waits of `op` before it, as stream indices.
  SmallVector<unsigned> getWaits(Operation *op, const BarrierState &before) {
    SmallVector<unsigned> waits;
    auto it = roles.find(op);
    if (it == roles.end() || it->second.kind == BarrierRole::Kind::HostWait)
      return waits;
    std::optional<unsigned> x = indexOf(it->second.stream);
    if (!x)
      return waits;
    for (auto [s, p] : before.barrier)
      if (p == *x)
        BarrierState::insert(waits, s);
    if (it->second.kind == BarrierRole::Kind::SyncForm)
      for (unsigned c : before.open)
        if (c != *x)
          BarrierState::insert(waits, c);
    return waits;
  }

  LogicalResult visitOperation(Operation *op, const BarrierLattice &before,
                               BarrierLattice *after) override {
    propagateIfChanged(after, after->set(transfer(op, before.state)));
    return success();
  }
  void visitCallControlFlowTransfer(CallOpInterface call,
                                    dataflow::CallControlFlowAction action,
                                    const BarrierLattice &before,
                                    BarrierLattice *after) override {
    // Calls are not entered: a callee's own work is its own program's.
    (void)visitOperation(call, before, after);
  }
  void setToEntryState(BarrierLattice *lattice) override {
    propagateIfChanged(lattice, lattice->set({}));
  }

private:
  std::optional<unsigned> indexOf(Value stream) const {
    const Value *at = llvm::find(streams, stream);
    if (at == streams.end())
      return std::nullopt;
    return at - streams.begin();
  }

  BarrierState transfer(Operation *op, const BarrierState &before) {
    auto it = roles.find(op);
    if (isDeviceCode(op) || it == roles.end())
      return before;
    const BarrierRole &role = it->second;
    BarrierState after = before;
    if (role.kind == BarrierRole::Kind::HostWait) {
      for (Value stream : role.synced)
        if (std::optional<unsigned> s = indexOf(stream)) {
          llvm::erase(after.open, *s);
          llvm::erase_if(after.barrier,
                         [&](auto pair) { return pair.first == *s; });
        }
      return after;
    }
    std::optional<unsigned> x = indexOf(role.stream);
    if (!x)
      return before;
    if (role.kind == BarrierRole::Kind::Chain) {
      BarrierState::insert(after.open, *x);
      llvm::erase_if(after.barrier,
                     [&](auto pair) { return pair.second == *x; });
      return after;
    }
    after.open.clear();
    after.barrier.clear();
    for (unsigned p = 0, e = streams.size(); p < e; ++p)
      if (p != *x)
        after.barrier.push_back({*x, p});
    return after;
  }

  const DenseMap<Operation *, BarrierRole> &roles;
  ArrayRef<Value> streams;
};
} // namespace

FailureOr<DenseMap<Operation *, SmallVector<Value>>>
mlir::sdfg::getSyncFormBarrierWaits(
    FunctionOpInterface program,
    const DenseMap<Operation *, BarrierRole> &roles, ArrayRef<Value> streams) {
  DataFlowSolver solver(DataFlowConfig().setInterprocedural(false));
  dataflow::loadBaselineAnalyses(solver);
  auto *analysis = solver.load<BarrierAnalysis>(roles, streams);
  if (failed(solver.initializeAndRun(program)))
    return failure();
  DenseMap<Operation *, SmallVector<Value>> waits;
  for (auto &[op, role] : roles) {
    const auto *before =
        solver.lookupState<BarrierLattice>(solver.getProgramPointBefore(op));
    if (!before) // Dead code.
      continue;
    SmallVector<unsigned> indices = analysis->getWaits(op, before->state);
    if (indices.empty())
      continue;
    SmallVector<Value> &opWaits = waits[op];
    for (unsigned index : indices)
      opWaits.push_back(streams[index]);
  }
  return waits;
}
