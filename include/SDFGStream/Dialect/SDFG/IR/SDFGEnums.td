//===- SDFGEnums.td - Enumerations of the sdfg dialect -----*- tablegen -*-===//
//
// Part of the SDFGStream project.
//
//===----------------------------------------------------------------------===//

#ifndef SDFGSTREAM_DIALECT_SDFG_IR_SDFGENUMS_TD
#define SDFGSTREAM_DIALECT_SDFG_IR_SDFGENUMS_TD

include "mlir/IR/EnumAttr.td"

def SDFG_ProgramTarget : I32EnumAttr<"ProgramTarget",
    "the processor a program is generated for", [
      I32EnumAttrCase<"CPU", 0, "cpu">,
      I32EnumAttrCase<"GPU", 1, "gpu">
    ]> {
  let cppNamespace = "::mlir::sdfg";
}

def SDFG_ReductionKind : I32EnumAttr<"ReductionKind",
    "the combining operation of a reduction", [
      I32EnumAttrCase<"Add", 0, "add">,
      I32EnumAttrCase<"Max", 1, "max">,
      I32EnumAttrCase<"Min", 2, "min">
    ]> {
  let cppNamespace = "::mlir::sdfg";
}

#endif // SDFGSTREAM_DIALECT_SDFG_IR_SDFGENUMS_TD
