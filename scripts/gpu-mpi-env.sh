# Sourced on the GPU machine (bash), whose image has no MPI: unpacks the
# Open MPI 4.1 packages that scripts/fetch-gpu-deps.sh put in
# gpu-data/ompi-deb into /tmp/ompi (once) and sets the environment that
# relocates them there (OPAL_PREFIX and the component paths), so that
# `mpirun -np P build-gpu/warptour ...` runs a build with MPI (made here:
# scripts/build-for-gpu.sh links the library against Open MPI 4.1, whose
# libmpi.so.40 these packages provide).  Runs as root are allowed.
# Open MPI's PMIx then warns once that its zlib compression component did
# not load: harmless.
wt_ompi=/tmp/ompi
wt_debs="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/gpu-data/ompi-deb"
if [ ! -x $wt_ompi/usr/bin/orterun ]; then
    mkdir -p $wt_ompi
    for f in "$wt_debs"/*.deb; do dpkg -x "$f" $wt_ompi; done
    ln -sf orterun $wt_ompi/usr/bin/mpirun
fi
wt_lib=$wt_ompi/usr/lib/x86_64-linux-gnu
export OPAL_PREFIX=$wt_ompi/usr
export PATH=$wt_ompi/usr/bin:$PATH
export LD_LIBRARY_PATH=$wt_lib:$wt_lib/openmpi/lib:$wt_lib/pmix2/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PMIX_INSTALL_PREFIX=$wt_lib/pmix2
export PMIX_MCA_mca_base_component_path=$wt_lib/pmix2/lib/pmix
export OMPI_MCA_mca_base_component_path=$wt_lib/openmpi/lib/openmpi3
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
unset wt_ompi wt_debs wt_lib
