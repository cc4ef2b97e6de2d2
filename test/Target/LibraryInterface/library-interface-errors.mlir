// A program named like what the library's interface defines itself.
// RUN: sdfg-translate --sdfg-to-library-interface %s -split-input-file -verify-diagnostics

// expected-error @+1 {{program @sdfgstreamManifest has a name the library's interface defines itself (sdfgstreamManifest, _sdfgstream_packed_*); rename it}}
func.func @sdfgstreamManifest() {
  return
}

// -----

func.func @f() {
  return
}
// expected-error @+1 {{program @_sdfgstream_packed_f has a name the library's interface defines itself}}
func.func @_sdfgstream_packed_f() {
  return
}
