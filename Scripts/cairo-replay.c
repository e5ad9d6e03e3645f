/* The raster peer of Scripts/bench: cairo's image backend (pixman underneath, with its SIMD
 * fast paths) replays Flipbook's own draw lists, so that our raster is timed against a
 * mature C rasterizer drawing the same frames. cairo-replay.py writes the lists.
 *
 *   cairo-replay LISTS REPEAT [FRAME OUT.png]
 *
 * LISTS: "W H R G B" (canvas and background), "I N" and N image paths, then per frame either
 * "D" (the same list as the frame before, which Flipbook does not rasterize again either) or
 * "F N" and N commands, in output pixels:
 *   R r g b a  x y w h radius  C          a fill (straight colour, a already times the opacity)
 *   S image sx sy sw sh  x y w h alpha  C  a snapshot's source rect drawn into x y w h
 * where C is "0" or "1 cx cy cw ch cradius" (a clip). Snapshots are bilinear, clamped to their
 * source rect (a subsurface with EXTEND_PAD), as Flipbook samples them.
 *
 * Prints {"frames", "rasterized", "raster_s"} (the best of REPEAT runs, one thread); with FRAME,
 * also writes that frame as a PNG for a look beside Flipbook's. Not a test: a bench peer. */
#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct { double x, y, w, h, r; } Box;
typedef struct {
    char kind;
    int image;
    double c[4], s[4], alpha;
    Box rect, clip;
    int clipped;
} Command;
typedef struct { Command *commands; int count; } Frame;

static void rounded(cairo_t *cr, Box b) {
    double r = b.r;
    if (r > b.w / 2) r = b.w / 2;
    if (r > b.h / 2) r = b.h / 2;
    if (r <= 0) { cairo_rectangle(cr, b.x, b.y, b.w, b.h); return; }
    cairo_new_sub_path(cr);
    cairo_arc(cr, b.x + b.w - r, b.y + r, r, -M_PI / 2, 0);
    cairo_arc(cr, b.x + b.w - r, b.y + b.h - r, r, 0, M_PI / 2);
    cairo_arc(cr, b.x + r, b.y + b.h - r, r, M_PI / 2, M_PI);
    cairo_arc(cr, b.x + r, b.y + r, r, M_PI, 3 * M_PI / 2);
    cairo_close_path(cr);
}

static void fail(const char *what) { fprintf(stderr, "cairo-replay: %s\n", what); exit(1); }

static int read_box(FILE *f, Box *b, int with_radius) {
    b->r = 0;
    if (fscanf(f, "%lf %lf %lf %lf", &b->x, &b->y, &b->w, &b->h) != 4) return 0;
    return !with_radius || fscanf(f, "%lf", &b->r) == 1;
}

static void draw(cairo_t *cr, const Command *c, cairo_pattern_t **patterns) {
    cairo_save(cr);
    if (c->clipped) { rounded(cr, c->clip); cairo_clip(cr); }
    if (c->kind == 'R') {
        cairo_set_source_rgba(cr, c->c[0], c->c[1], c->c[2], c->c[3]);
        rounded(cr, c->rect);
        cairo_fill(cr);
    } else {
        cairo_rectangle(cr, c->rect.x, c->rect.y, c->rect.w, c->rect.h);
        cairo_clip(cr);
        cairo_translate(cr, c->rect.x, c->rect.y);
        cairo_scale(cr, c->rect.w / c->s[2], c->rect.h / c->s[3]);
        cairo_set_source(cr, patterns[c->image]);
        if (c->alpha >= 1) cairo_paint(cr); else cairo_paint_with_alpha(cr, c->alpha);
    }
    cairo_restore(cr);
}

int main(int argc, char **argv) {
    if (argc != 3 && argc != 5) fail("usage: cairo-replay LISTS REPEAT [FRAME OUT.png]");
    FILE *f = fopen(argv[1], "r");
    if (!f) fail("cannot open the lists");
    int repeat = atoi(argv[2]), width, height, images;
    double bg[3];
    if (fscanf(f, "%d %d %lf %lf %lf I %d", &width, &height, &bg[0], &bg[1], &bg[2], &images) != 6) fail("bad header");
    cairo_surface_t **surfaces = calloc(images, sizeof *surfaces);
    char path[4096];
    for (int i = 0; i < images; i++) {
        if (fscanf(f, " %4095[^\n]", path) != 1) fail("bad image line");
        surfaces[i] = cairo_image_surface_create_from_png(path);
        if (cairo_surface_status(surfaces[i]) != CAIRO_STATUS_SUCCESS) { fprintf(stderr, "cairo-replay: %s\n", path); fail("cannot read an image"); }
    }
    Frame *frames = NULL;
    int count = 0, capacity = 0, rasterized = 0;
    char tag[2];
    while (fscanf(f, " %1s", tag) == 1) {
        if (count == capacity) { capacity = capacity ? capacity * 2 : 256; frames = realloc(frames, capacity * sizeof *frames); }
        Frame *fr = &frames[count++];
        fr->commands = NULL; fr->count = -1;
        if (tag[0] == 'D') continue;
        if (tag[0] != 'F' || fscanf(f, "%d", &fr->count) != 1) fail("bad frame line");
        rasterized++;
        fr->commands = calloc(fr->count ? fr->count : 1, sizeof(Command));
        for (int k = 0; k < fr->count; k++) {
            Command *c = &fr->commands[k];
            if (fscanf(f, " %c", &c->kind) != 1) fail("bad command");
            if (c->kind == 'R') {
                if (fscanf(f, "%lf %lf %lf %lf", &c->c[0], &c->c[1], &c->c[2], &c->c[3]) != 4 || !read_box(f, &c->rect, 1)) fail("bad fill");
            } else if (c->kind == 'S') {
                if (fscanf(f, "%d %lf %lf %lf %lf", &c->image, &c->s[0], &c->s[1], &c->s[2], &c->s[3]) != 5 || !read_box(f, &c->rect, 0) ||
                    fscanf(f, "%lf", &c->alpha) != 1 || c->image < 0 || c->image >= images) fail("bad snapshot");
            } else fail("unknown command");
            if (fscanf(f, "%d", &c->clipped) != 1 || (c->clipped && !read_box(f, &c->clip, 1))) fail("bad clip");
        }
    }
    fclose(f);

    /* Each snapshot's pattern (a subsurface of its source rect, bilinear, padded) is made
     * before the clock starts: only drawing is timed. */
    int total = 0;
    for (int i = 0; i < count; i++) if (frames[i].count > 0) total += frames[i].count;
    cairo_pattern_t **patterns = calloc(total ? total : 1, sizeof *patterns);
    int next = 0;
    for (int i = 0; i < count; i++) for (int k = 0; k < frames[i].count; k++) {
        Command *c = &frames[i].commands[k];
        if (c->kind != 'S') continue;
        cairo_surface_t *sub = cairo_surface_create_for_rectangle(surfaces[c->image], c->s[0], c->s[1], c->s[2], c->s[3]);
        patterns[next] = cairo_pattern_create_for_surface(sub);
        cairo_surface_destroy(sub);
        cairo_pattern_set_filter(patterns[next], CAIRO_FILTER_BILINEAR);
        cairo_pattern_set_extend(patterns[next], CAIRO_EXTEND_PAD);
        c->image = next++;
    }

    cairo_surface_t *target = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
    cairo_t *cr = cairo_create(target);
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_DEFAULT);
    int shot = argc == 5 ? atoi(argv[3]) : -1;
    double best = 1e30;
    /* With FRAME, a first run writes the PNG and is not timed. */
    for (int run = shot >= 0 ? -1 : 0; run < repeat; run++) {
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        for (int i = 0; i < count; i++) {
            if (frames[i].count < 0) continue;
            cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
            cairo_set_source_rgb(cr, bg[0], bg[1], bg[2]);
            cairo_paint(cr);
            cairo_set_operator(cr, CAIRO_OPERATOR_OVER);
            for (int k = 0; k < frames[i].count; k++) draw(cr, &frames[i].commands[k], patterns);
            cairo_surface_flush(target);
            if (run < 0 && i == shot) cairo_surface_write_to_png(target, argv[4]);
        }
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double s = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
        if (run >= 0 && s < best) best = s;
    }
    printf("{\"frames\": %d, \"rasterized\": %d, \"raster_s\": %.6f}\n", count, rasterized, best);
    return 0;
}
