// Cards in motion beyond what CSS does alone: a gathered trick flies to its winner's seat.
// Nothing moves for a player who asked for reduced motion.
const still = () => matchMedia("(prefers-reduced-motion: reduce)").matches;

// ``cards``: the trick's card elements measured before the felt was redrawn ([element, rect]);
// they are copied above the page where they were and sent to the winner's name on the new felt.
export function gatherTrick(cards, felt, winner) {
  const target = felt.querySelector(`.seat[data-seat="${winner}"] .name`);
  if (still() || !target || !cards.length) return;
  const to = target.getBoundingClientRect();
  for (const [el, from] of cards) {
    const ghost = el.cloneNode(true);
    ghost.classList.remove("fresh", "winner");
    ghost.classList.add("gathered");
    ghost.setAttribute("aria-hidden", "true");
    Object.assign(ghost.style, {position: "fixed", left: `${from.left}px`, top: `${from.top}px`, margin: "0",
      width: `${from.width}px`, height: `${from.height}px`, zIndex: 5, pointerEvents: "none"});  // under the result
    document.body.append(ghost);
    const dx = to.left + to.width / 2 - (from.left + from.width / 2), dy = to.top + to.height / 2 - (from.top + from.height / 2);
    ghost.animate([{transform: "none", opacity: 1}, {transform: `translate(${dx}px, ${dy}px) scale(.45)`, opacity: 0}],
      {duration: 450, easing: "ease-in"}).finished.then(() => ghost.remove(), () => ghost.remove());
  }
}
