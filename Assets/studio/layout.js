// The page's layout: the params panel's width (a splitter dragged, or moved with the arrow
// keys) and the light or dark theme (the system's until chosen). Both are kept in the
// browser's storage, for the next visit.

import { $ } from "./state.js";

const widthKey = "flipbook-studio-params-width";
const themeKey = "flipbook-studio-theme";

// The panel's width, within what leaves the preview room.
function setWidth(px) {
  const width = Math.round(Math.min(Math.max(280, px), Math.max(280, window.innerWidth - 360)));
  document.documentElement.style.setProperty("--params-width", `${width}px`);
  $("splitter").setAttribute("aria-valuenow", String(width));
  return width;
}

function currentWidth() {
  return $("params").parentElement.getBoundingClientRect().width;
}

// The previews drawn at a whole multiple of their pixels that fits the room beside the params
// (a large window shows a @1x render at 2x, each pixel a crisp square), never larger than
// their room, never smaller than their pixels unless the window is.
export function fitPreviews(width, height) {
  const canvases = [$("canvas"), $("canvas-other")];
  // The stage's width less its padding: the viewers themselves are only as wide as what they hold.
  const stage = canvases[0].closest(".stage");
  const padding = stage ? parseFloat(getComputedStyle(stage).paddingLeft) + parseFloat(getComputedStyle(stage).paddingRight) : 0;
  const room = stage ? stage.clientWidth - padding : width;
  const shown = canvases.filter((c) => !c.closest(".viewer").hidden).length || 1;
  const across = (room - 16 * (shown - 1)) / shown;
  const zoom = Math.max(1, Math.floor(Math.min(across / width, (window.innerHeight - 260) / height)));
  for (const c of canvases) {
    c.style.width = zoom > 1 ? `${width * zoom}px` : "";
    c.style.height = zoom > 1 ? `${height * zoom}px` : "";
    c.style.imageRendering = zoom > 1 ? "pixelated" : "";
  }
}

export function setUpLayout() {
  const saved = Number(localStorage.getItem(widthKey));
  if (saved > 0) setWidth(saved);
  const splitter = $("splitter");
  splitter.addEventListener("pointerdown", (e) => {
    if (e.button !== 0) return;
    e.preventDefault();
    splitter.setPointerCapture(e.pointerId);
    splitter.classList.add("dragging");
    const move = (ev) => setWidth(window.innerWidth - ev.clientX);
    const end = () => {
      splitter.removeEventListener("pointermove", move);
      splitter.classList.remove("dragging");
      localStorage.setItem(widthKey, String(Math.round(currentWidth())));
    };
    splitter.addEventListener("pointermove", move);
    splitter.addEventListener("pointerup", end, { once: true });
    splitter.addEventListener("pointercancel", end, { once: true });
  });
  splitter.addEventListener("keydown", (e) => {
    if (e.key !== "ArrowLeft" && e.key !== "ArrowRight") return;
    e.preventDefault();
    e.stopPropagation();
    const step = e.shiftKey ? 160 : 16;
    localStorage.setItem(widthKey, String(setWidth(currentWidth() + (e.key === "ArrowLeft" ? step : -step))));
  });

  const theme = localStorage.getItem(themeKey);
  if (theme === "dark" || theme === "light") document.documentElement.dataset.theme = theme;
  $("theme").addEventListener("click", () => {
    const dark = document.documentElement.dataset.theme
      ? document.documentElement.dataset.theme === "dark"
      : matchMedia("(prefers-color-scheme: dark)").matches;
    document.documentElement.dataset.theme = dark ? "light" : "dark";
    localStorage.setItem(themeKey, document.documentElement.dataset.theme);
  });
}
