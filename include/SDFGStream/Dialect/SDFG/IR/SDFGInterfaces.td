//===- SDFGInterfaces.td - Interfaces of the sdfg dialect --*- tablegen -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_DIALECT_SDFG_IR_SDFGINTERFACES_TD
#define SDFGSTREAM_DIALECT_SDFG_IR_SDFGINTERFACES_TD

include "mlir/IR/OpBase.td"

def SDFG_LibraryNodeOpInterface : OpInterface<"LibraryNodeOpInterface"> {
  let cppNamespace = "::mlir::sdfg";
  let description = [{
    A library node is a coarse operation (a reduction, a BLAS call, ...) that
    `sdfg-expand-library-nodes` replaces by a call to a nested program that
    implements it. A library node in a GPU program carries an optional stream
    operand: once `sdfg-add-external-gpu-stream` has set it, the nested program
    built by the expansion takes the caller's stream as well, so its kernels
    run on that stream no matter when the node is expanded.

    Any dialect can implement this interface on its own ops to have them
    expanded (and streamed) by SDFGStream.
  }];
  let methods = [
    InterfaceMethod<[{
      Returns the stream the node runs on, or a null value before
      `sdfg-add-external-gpu-stream` has set one.
    }], "::mlir::Value", "getNodeStream">,
    InterfaceMethod<[{
      Sets the stream the node runs on.
    }], "void", "setNodeStream", (ins "::mlir::Value":$stream)>,
    InterfaceMethod<[{
      Returns the operands passed on to the implementation, in the order of
      the implementing program's arguments (the stream excluded).
    }], "::mlir::SmallVector<::mlir::Value>", "getDataOperands">,
    InterfaceMethod<[{
      Returns a symbol name for the implementation on `target`. Nodes with
      the same name share one implementation.
    }], "std::string", "getImplementationName",
      (ins "::mlir::sdfg::ProgramTarget":$target)>,
    InterfaceMethod<[{
      Builds the nested program (and whatever kernels it needs) that
      implements the node on `target`, at the builder's insertion point in a
      symbol table, under the symbol `name`. The program takes the data
      operands as its arguments. Returns the program, or emits an error and
      returns failure.
    }], "::mlir::FailureOr<::mlir::FunctionOpInterface>", "buildImplementation",
      (ins "::mlir::OpBuilder &":$builder,
           "::mlir::sdfg::ProgramTarget":$target,
           "::llvm::StringRef":$name)>
  ];
}

#endif // SDFGSTREAM_DIALECT_SDFG_IR_SDFGINTERFACES_TD
