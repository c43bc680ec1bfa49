# The core's folders by layer, in the order data flows (docs/guide/architecture.md): each
# includes only from the folders before it, which tests/test_layout.py checks. One list
# for the library and the fuzz targets, which compile the same sources instrumented.
set(DDZ_LAYERS base rules game search learn play)

# Sets `out` to the core's sources under `core_dir`, layer by layer.
function(ddz_core_sources out core_dir)
  set(sources)
  foreach(layer IN LISTS DDZ_LAYERS)
    file(GLOB layer_sources CONFIGURE_DEPENDS "${core_dir}/${layer}/*.cpp")
    list(APPEND sources ${layer_sources})
  endforeach()
  set(${out} ${sources} PARENT_SCOPE)
endfunction()
