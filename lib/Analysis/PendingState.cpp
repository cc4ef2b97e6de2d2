//===- PendingState.cpp - GPU work pending at a program point -------------===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//

#include "SDFGStream/Analysis/PendingState.h"

#include "mlir/IR/AsmState.h"

using namespace mlir;
using namespace mlir::sdfg;

/// The order of streams in an entry and of entries in a state.
static bool streamLess(Value a, Value b) {
  return a.getAsOpaquePointer() < b.getAsOpaquePointer();
}

bool PendingEntry::operator<(const PendingEntry &other) const {
  if (root != other.root)
    return root < other.root;
  if (write != other.write)
    return write < other.write;
  return std::lexicographical_compare(streams.begin(), streams.end(),
                                      other.streams.begin(),
                                      other.streams.end(), streamLess);
}

bool PendingEntry::operator==(const PendingEntry &other) const {
  return root == other.root && write == other.write &&
         streams == other.streams;
}

void PendingState::add(PendingEntry entry) {
  auto it = llvm::lower_bound(entries, entry);
  if (it == entries.end() || !(*it == entry))
    entries.insert(it, entry);
}

bool PendingState::join(const PendingState &other) {
  bool changed = other.unknown && !unknown;
  unknown |= other.unknown;
  for (const PendingEntry &entry : other.entries) {
    size_t size = entries.size();
    add(entry);
    changed |= entries.size() != size;
  }
  return changed;
}

static bool coveredBy(const PendingEntry &entry, ArrayRef<Value> streams) {
  return llvm::any_of(entry.streams, [&](Value stream) {
    return llvm::is_contained(streams, stream);
  });
}

void PendingState::clear(ArrayRef<Value> streams) {
  if (streams.empty())
    return;
  llvm::erase_if(entries, [&](const PendingEntry &entry) {
    return coveredBy(entry, streams);
  });
}

SmallVector<Value> mlir::sdfg::getStreamsToSync(
    const PendingState &state, const OpAccesses &accesses,
    const BufferAliasAnalysis &aliases, ArrayRef<Value> programStreams) {
  SmallVector<Value> streams;
  if (accesses.host.empty())
    return streams;
  if (state.unknown)
    return SmallVector<Value>(programStreams);
  SmallVector<const PendingEntry *> conflicts;
  for (const PendingEntry &entry : state.entries)
    if (entry.root != kWorkMarkerRoot &&
        llvm::any_of(accesses.host, [&](const BufferAccess &access) {
          return (entry.write || access.write) &&
                 aliases.mayAlias({entry.root}, access.roots);
        }))
      conflicts.push_back(&entry);
  return getCoveringStreams(conflicts);
}

SmallVector<Value>
mlir::sdfg::getCoveringStreams(ArrayRef<const PendingEntry *> entries) {
  SmallVector<Value> streams;
  SmallVector<const PendingEntry *> uncovered(entries);
  // The stream covering the most entries first (ties: the first seen).
  while (!uncovered.empty()) {
    SmallVector<std::pair<Value, unsigned>> counts;
    for (const PendingEntry *entry : uncovered)
      for (Value stream : entry->streams) {
        auto it = llvm::find_if(counts, [&](auto &c) { return c.first == stream; });
        if (it == counts.end())
          counts.push_back({stream, 1});
        else
          ++it->second;
      }
    Value best = counts.front().first;
    unsigned most = counts.front().second;
    for (auto [stream, count] : counts)
      if (count > most) {
        best = stream;
        most = count;
      }
    streams.push_back(best);
    llvm::erase_if(uncovered, [&](const PendingEntry *entry) {
      return coveredBy(*entry, best);
    });
  }
  return streams;
}

PendingState mlir::sdfg::applyAccesses(const PendingState &before,
                                       const OpAccesses &accesses,
                                       ArrayRef<Value> syncedBefore,
                                       ArrayRef<Value> programStreams) {
  PendingState after = before;
  SmallVector<Value> synced(syncedBefore);
  llvm::append_range(synced, accesses.synced);
  after.clear(synced);
  if (after.unknown &&
      llvm::all_of(programStreams, [&](Value stream) {
        return llvm::is_contained(synced, stream);
      }))
    after.unknown = false;
  for (auto [waiting, waitedOn] : accesses.streamWaits) {
    PendingState waited;
    waited.unknown = after.unknown;
    for (PendingEntry entry : after.entries) {
      if (llvm::is_contained(entry.streams, waitedOn) &&
          !llvm::is_contained(entry.streams, waiting)) {
        entry.streams.insert(
            llvm::lower_bound(entry.streams, waiting, streamLess), waiting);
      }
      waited.add(std::move(entry));
    }
    after = std::move(waited);
  }
  for (const StreamAccess &access : accesses.gpu)
    for (unsigned root : access.access.roots)
      after.add({{access.stream}, root, access.access.write});
  after.clear(accesses.syncedAfter);
  if (after.unknown && llvm::all_of(programStreams, [&](Value stream) {
        return llvm::is_contained(synced, stream) ||
               llvm::is_contained(accesses.syncedAfter, stream);
      }))
    after.unknown = false;
  return after;
}

void mlir::sdfg::printPendingState(const PendingState &state, raw_ostream &os,
                                   const BufferAliasAnalysis &aliases,
                                   AsmState &asmState) {
  if (state.unknown)
    os << "unknown ";
  os << "{";
  llvm::interleaveComma(state.entries, os, [&](const PendingEntry &entry) {
    os << "(";
    llvm::interleave(
        entry.streams, os,
        [&](Value stream) { stream.printAsOperand(os, asmState); }, " ");
    os << "; ";
    if (entry.root == kWorkMarkerRoot) {
      os << "work)";
      return;
    }
    aliases.printRoot(entry.root, os, asmState);
    os << (entry.write ? "; write)" : "; read)");
  });
  os << "}";
}
