/* The C API from a C program built only from the staged install: compiled as strict C99 against the
 * installed npurun.h, linked against the installed library (shared and static), and run. */
#include <npurun/npurun.h>

#include <stdio.h>
#include <string.h>

int main(void) {
    npurun_model* model = NULL;
    const char* version = npurun_version();
    if (version == NULL || version[0] == '\0') {
        fprintf(stderr, "c consumer: empty version\n");
        return 1;
    }
    if (npurun_model_load("/nonexistent/npurun-consumer-model.armnn", &model) == NPURUN_OK) {
        fprintf(stderr, "c consumer: loading a missing file did not fail\n");
        return 1;
    }
    if (npurun_last_error() == NULL || strlen(npurun_last_error()) == 0) {
        fprintf(stderr, "c consumer: no error message\n");
        return 1;
    }
    printf("npurun c consumer ok (%s)\n", version);
    return 0;
}
