"""What Scripts/fidelity tracks in each promo recording, in the recording's pixels.

Each entry: the recording's file name -> (where our frame sits in the recording: x, y, width,
height, or None for the whole frame; the features). Templates and colours are read from the
side being measured (see fidelity_track), at moments when both show the same state.
"""
from fidelity_track import Edge, Extent, Shift

BLUE = (48, 103, 244)


def _inbox(detail_at, list_at=None):
    """The Inbox recordings (375 x 667): the bar's bottom edge; the row below the tapped one
    (the list) and the detail's body, each as it slides."""
    features = [("bar bottom", Extent(30, 21, 400, colour=BLUE))]
    if list_at is not None:
        features.append(("row below", Shift((0, 245, 375, 60), list_at, "y", 440)))
    features.append(("detail body", Shift((0, 150, 375, 180), detail_at, "y", 440)))
    return features


def _button(cx, cy, to, close_at, axis="y"):
    """The expanding-view recordings (300 x 532): the tapped circle's far edge from its centre,
    while it grows, along a line that crosses nothing else orange (our logo's lower edge is
    near the buttons' orange); the next screen's text as it slides down."""
    return [
        ("circle edge", Extent(round(cx), round(cy), to, axis=axis, colour_at=(round(cx), round(cy), 0.0), during=(0, close_at - 0.6))),
        ("next screen", Shift((0, 30, 300, 200), close_at - 0.1, "y", 520, during=(close_at - 0.6, 99))),
    ]


def _brown(p):
    """The Great Coffee card's tint, in the recording and ours: red over green by more than
    green over blue (Big Ideas' yellow is the other way round; Bikes is grey), and dark (not
    the pale anti-aliased edge of the Big Ideas card beside it)."""
    r, g, b = p[:3]
    return r - b > 50 and r - g > g - b and r < 220


def _white(p):
    """A detail page's body, white (along the row measured, the older demo's backdrop is a
    grey of about 200)."""
    return min(p[:3]) > 240


def _rest_edge_x(y, during=None):
    return Extent(0, y, 160, axis="x", colour_at=(2, y, 0.0), during=during)


FEATURES = {
    "gl-inbox-preview.gif": (None, _inbox(2.0, 0.0)),
    "transition-preview.gif": (None, _inbox(3.6, 0.0)),
    "dismiss-initial.gif": (None, _inbox(0.0)),
    "dismiss-status-bar.gif": (None, _inbox(0.0)),
    "dismiss-final.gif": (None, _inbox(0.0)),
    "transition-1.gif": (None, _button(150, 471, 0, 2.3)),
    "transition-2.gif": (None, _button(150, 367, 299, 2.0, axis="x")),
    "transition-3.gif": (None, _button(40, 266, 0, 2.1)),
    "transition-4.gif": (None, _button(226, 126, 532, 2.0)),
    # The App Store demo (320 x 567): each card's left edge (its width is the canvas less
    # twice that), card 1's top edge below the status bar; card 2's while it is pressed
    # (when card 1 is open its detail crosses that row); each card's top as it opens; while a
    # card is dragged, its right edge along a row through its detail's white body, against
    # the grey backdrop (the top edges are not measured then: that grey is not the home's
    # white).
    "app-store-card-old-demo.gif": (None, [
        ("card 1 left", _rest_edge_x(300)),
        ("card 1 top", Extent(160, 22, 300, colour_at=(160, 30, 0.0), during=(0, 1.8))),
        ("card 2 left", _rest_edge_x(520, during=(2.8, 3.8))),
        ("card 2 top, opening", Extent(160, 22, 300, colour_at=(160, 30, 0.0), during=(3.0, 5.0))),
        ("card 1 right, dragged", Edge(430, 319, 160, _white, during=(1.7, 2.9))),
        ("card 2 right, dragged", Edge(430, 319, 160, _white, during=(5.2, 6.6))),
    ]),
    # The Rooms port (371 x 678: a simulator's title bar above a screen scaled to 371 x 662):
    # the Great Coffee card's edges along a row through the carousel (told by its tint: the
    # photographs inside the cards move with parallax, so no template follows them); the
    # white panel's top below the room, at its right margin, while a room is open.
    "sliding-panels-port-demo.gif": ((0, 16, 371, 662), [
        ("coffee card left", Edge(250, 0, 369, _brown)),
        ("coffee card right", Edge(250, 369, 0, _brown)),
        ("panel top", Extent(366, 84, 677, colour=(255, 255, 255), until=True, during=(3.0, 5.5))),
    ]),
}
