/* The training run of the shared library's layout (scripts/native-release.sh):
 * enhances CLASS_DIR through the C ABI, as the plugins do through JNI, every
 * method monitored, one thread. Usage: bolt-train CLASS_DIR RESOURCE_FILE
 * Exits 0 when the library answered Ok. */
#include "tf_core.h"
#include <stdio.h>
#include <string.h>

/* A MessagePack str 8; the caller checked that it fits. */
static size_t put_str(uint8_t *p, const char *s) {
    size_t n = strlen(s);
    p[0] = 0xd9;
    p[1] = (uint8_t)n;
    memcpy(p + 2, s, n);
    return n + 2;
}

int main(int argc, char **argv) {
    if (argc != 3 || strlen(argv[1]) > 255 || strlen(argv[2]) > 255) {
        fprintf(stderr, "usage: bolt-train CLASS_DIR RESOURCE_FILE (paths of at most 255 bytes)\n");
        return 64;
    }
    uint8_t request[1024];
    size_t n = 0;
    request[n++] = 0x85; /* map of 5 */
    n += put_str(request + n, "format_version");
    request[n++] = 0x01;
    n += put_str(request + n, "class_dir");
    n += put_str(request + n, argv[1]);
    n += put_str(request + n, "resource_file");
    n += put_str(request + n, argv[2]);
    n += put_str(request + n, "filters");
    request[n++] = 0x91; /* array of 1 */
    n += put_str(request + n, "**");
    n += put_str(request + n, "threads");
    request[n++] = 0x01;

    TfBuffer out;
    TfStatus status = tf_enhance(request, n, &out);
    if (status != TfStatus_Ok) {
        fprintf(stderr, "tf_enhance: status %d: %.*s\n", (int)status, (int)out.len, (const char *)out.data);
    }
    tf_buffer_free(out);
    return status == TfStatus_Ok ? 0 : 1;
}
