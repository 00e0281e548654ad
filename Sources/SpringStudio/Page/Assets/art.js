// Your art (Reference §10.16): the designer's PNG or JPEG drawn on the model's moving layer (the
// photo, the card, the sheet, the page, the new or pinched row, every list row) in every panel
// and in feel mode, at actual size: one image pixel is 1/s pt, s the 2 or 3 of a file named
// `…@2x` or `…@3x` (1 otherwise), centred on the shape and cut to it. The image is kept in the
// session (PUT /api/image), so it is there again after a restart; the server checks it from its
// bytes (a PNG or JPEG, at most 4 MiB and 4096 px a side) and refuses anything else with one line.
import * as api from "./api.js";
import { $, showError } from "./dom.js";
import { movingShapes } from "./pictures.js";
import { seeing } from "./stage.js";

/// Largest image the page sends (bytes): the server's limit, checked here first to spare the upload.
const MAX_IMAGE = 4 << 20;

/// Image pixels per pt from a file's name: 3 for `…@3x.png`, 2 for `…@2x.jpg`, else 1.
export function imageScale(name) {
  const stem = name.replace(/\.[^.]*$/, "");
  return stem.endsWith("@3x") ? 3 : stem.endsWith("@2x") ? 2 : 1;
}

/// The image drawn from now on (null: none), with its note under the control.
function showArt(bitmap, info) {
  seeing.art = bitmap ? { image: bitmap, scale: info.scale, layer: movingShapes } : null;
  $("art-note").textContent = bitmap ? info.width + " × " + info.height + " px at " + info.scale + "× (" + Math.round(info.width / info.scale) + " × " +
    Math.round(info.height / info.scale) + " pt)" : "";
  $("art-remove").hidden = !bitmap;
  document.body.dataset.art = bitmap ? "on" : "off";
}

/// A chosen file: decoded, then sent to the session and drawn; refused with one line otherwise
/// (the session's image, if any, stays).
async function setArt(file) {
  try {
    if (file.size > MAX_IMAGE) throw new Error("an image is at most 4 MiB; " + file.name + " is " + file.size + " bytes");
    const bitmap = await createImageBitmap(file).catch(() => { throw new Error(file.name + " could not be decoded as an image"); });
    const answer = await api.setImage(file, imageScale(file.name));
    showArt(bitmap, answer.image);
    showError("", "art");
  } catch (e) {
    showError("art: " + (e.message || e), "art");
  }
}

/// The control and the session's image, if it has one.
export async function startArt() {
  $("art").addEventListener("change", () => { if ($("art").files[0]) setArt($("art").files[0]); $("art").value = ""; });
  $("art-remove").addEventListener("click", async () => {
    try { await api.removeImage(); showArt(null); } catch (e) { showError("art: " + (e.message || e), "art"); }
  });
  try {
    const { image } = await api.image();
    if (image) showArt(await createImageBitmap(await api.imageFile()), image); else showArt(null);
  } catch (e) {
    showError("art: the session's image could not be loaded (" + (e.message || e) + ")", "art");
  }
}
