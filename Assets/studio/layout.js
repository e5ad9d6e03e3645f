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
