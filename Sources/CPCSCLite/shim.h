// pcsc-lite's PC/SC API (winscard.h); pkg-config libpcsclite puts its folder on the path.
#include <winscard.h>
