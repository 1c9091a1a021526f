/* The thread's program list (run-many-x-apps.sh, benchmarks.md §5): the 45 command lines in
 * order, then the commented-out OpenOffice lines, each a step with no launch. */
#include "workloads/desktop.h"

#include "sim/types.h"

const char *const desktop_cmdline[DESKTOP_NR_THREAD] = {
    "xeyes",
    "firefox",
    "nautilus",
    "nautilus --browser",
    "gthumb",
    "gedit",
    "xpdf /usr/share/doc/shared-mime-info/shared-mime-info-spec.pdf",
    "xterm",
    "mlterm",
    "gnome-terminal",
    "urxvt",
    "gnome-system-monitor",
    "gnome-help",
    "gnome-dictionary",
    "/usr/games/sol",
    "/usr/games/gnometris",
    "/usr/games/gnect",
    "/usr/games/gtali",
    "/usr/games/iagno",
    "/usr/games/gnotravex",
    "/usr/games/mahjongg",
    "/usr/games/gnome-sudoku",
    "/usr/games/glines",
    "/usr/games/glchess",
    "/usr/games/gnomine",
    "/usr/games/gnotski",
    "/usr/games/gnibbles",
    "/usr/games/gnobots2",
    "/usr/games/blackjack",
    "/usr/games/same-gnome",
    "/usr/bin/gnome-window-properties",
    "/usr/bin/gnome-default-applications-properties",
    "/usr/bin/gnome-at-properties",
    "/usr/bin/gnome-typing-monitor",
    "/usr/bin/gnome-at-visual",
    "/usr/bin/gnome-sound-properties",
    "/usr/bin/gnome-at-mobility",
    "/usr/bin/gnome-keybinding-properties",
    "/usr/bin/gnome-about-me",
    "/usr/bin/gnome-display-properties",
    "/usr/bin/gnome-network-preferences",
    "/usr/bin/gnome-mouse-properties",
    "/usr/bin/gnome-appearance-properties",
    "/usr/bin/gnome-control-center",
    "/usr/bin/gnome-keyboard-properties",
};
static const char *const noop_names[] = {": oocalc", ": oodraw", ": ooimpress",
					 ": oomath", ": ooweb",	 ": oowriter"};

const char *desktop_step_name(int s, int programs)
{
	if (s < programs)
		return desktop_cmdline[s];
	int k = s - programs;
	return k < (int)ARRAY_SIZE(noop_names) ? noop_names[k] : ": (no-op)";
}
