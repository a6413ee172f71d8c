#!/bin/sh
# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
# Checks the simulator's build outputs: the stripped fixture looks like Android's libhwui
# (no symbols but MiniDebugInfo with the real mangled names, one-instruction getters at the
# documented offsets), and, as root, a short animsim run renames its children and records
# the exact scenario. usage: check.sh SIM_DIR (e.g. build/x86/sim)
set -u

dir=${1:?usage: check.sh SIM_DIR}
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*" >&2; }
check() { # check "what" command...
	what=$1
	shift
	if "$@" >"$tmp/out" 2>&1; then ok; else bad "$what"; cat "$tmp/out" >&2; fi
}

case $(readelf -h "$dir/libhwui.so" | sed -n 's/^ *Machine: *//p') in
AArch64) X=aarch64-linux-gnu-; arch=arm64 ;;
*) X=; arch=x86 ;;
esac

PROPS="Alpha:32:76 TranslationX:39:80 TranslationY:39:84 TranslationZ:39:88 Elevation:36:92
Rotation:35:96 RotationX:36:100 RotationY:36:104 ScaleX:33:108 ScaleY:33:112"
: >"$tmp/want"
for p in $PROPS; do
	name=${p%%:*}
	len=$(echo "$p" | cut -d: -f2)
	echo "_ZN7androidL${len}android_view_RenderNode_get${name}El" >>"$tmp/want"
	echo "_ZN7androidL${len}android_view_RenderNode_set${name}Elf" >>"$tmp/want"
done
# RenderNode create (JNI calling convention) and the 64-bit getter of mUniqueId.
echo _ZN7androidL30android_view_RenderNode_createEP7_JNIEnvP8_jobjectP8_jstring >>"$tmp/want"
echo _ZN7androidL35android_view_RenderNode_getUniqueIdEl >>"$tmp/want"
sort -o "$tmp/want" "$tmp/want"

minidebug_names() { # FILE -> sorted RenderNode names in its .gnu_debugdata
	${X}objcopy --dump-section .gnu_debugdata="$tmp/dd.xz" "$1" "$tmp/scratch" &&
		xz -dc "$tmp/dd.xz" >"$tmp/dd.elf" &&
		${X}nm "$tmp/dd.elf" | awk '/RenderNode/ {print $3}' | sort
}

no_symbols() { ! ${X}nm "$1" 2>/dev/null | grep -q .; }
no_symtab() { ! readelf -S -W "$1" | grep -q ' \.symtab '; }
names_match() { minidebug_names "$1" | diff "$tmp/want" -; }
exports_only_table() {
	${X}nm -D --defined-only "$dir/libhwui.so" | awk '{print $3}' | sort | diff - "$tmp/exp"
}
# Besides the table, GCC exports the fixture's own operator new and delete.
printf '_ZdlPv\n_ZdlPvm\n_Znwm\nhwui_fixture_create_node\nhwui_fixture_free_node\nhwui_fixture_methods\n' \
	>"$tmp/exp"
imports_string8() { # libhwui.so takes String8 from libutils.so, found next to it
	${X}nm -D --undefined-only "$dir/libhwui.so" | grep -qw _ZN7android7String85setToEPKc &&
		${X}nm -D --defined-only "$dir/libutils.so" | grep -qw _ZN7android7String85setToEPKc &&
		readelf -d "$dir/libhwui.so" | grep -q 'NEEDED.*\[libutils\.so\]' &&
		readelf -d "$dir/libhwui.so" | grep -q 'R.*PATH.*\[\$ORIGIN\]'
}

getter_shape() { # NAME OFFSET LEN [int64]: the getter is one load at OFFSET then ret
	${X}objdump -d --no-show-raw-insn "$dir/libhwui.unstripped.so" |
		awk -v f="<_ZN7androidL$3android_view_RenderNode_get$1El>:" \
			'$2 == f {on = 1; next} on && NF == 0 {exit} on {$1 = ""; print}' >"$tmp/g"
	case $arch/${4:-float} in
	arm64/float) printf ' ldr s0, [x0, #%d]\n ret\n' "$2" >"$tmp/gw" ;;
	arm64/int64) printf ' ldr x0, [x0, #%d]\n ret\n' "$2" >"$tmp/gw" ;;
	x86/float) printf ' movss 0x%x(%%rdi),%%xmm0\n ret\n' "$2" >"$tmp/gw" ;;
	x86/int64) printf ' mov 0x%x(%%rdi),%%rax\n ret\n' "$2" >"$tmp/gw" ;;
	esac
	tr -s ' \t' '  ' <"$tmp/g" | head -2 | diff "$tmp/gw" -
}

check "stripped libhwui.so has no symbols" no_symbols "$dir/libhwui.so"
check "stripped libhwui.so has no .symtab" no_symtab "$dir/libhwui.so"
check "MiniDebugInfo holds exactly the 20 setters and getters, create and getUniqueId" \
	names_match "$dir/libhwui.so"
check "libhwui.so exports only the registration functions" exports_only_table
check "libhwui.so imports String8::setTo from libutils.so beside it" imports_string8
uid_off=$(sed -n 's/^#define HWUI_OFF_UNIQUE_ID \(0x[0-9a-f]*\).*/\1/p' "$(dirname "$0")/hwui_fixture.h")
check "getUniqueId is one 64-bit load of mUniqueId ($uid_off) plus ret" \
	getter_shape UniqueId $((uid_off)) 35 int64
for p in $PROPS; do
	check "get${p%%:*} is one load plus ret" getter_shape "${p%%:*}" "${p##*:}" \
		"$(echo "$p" | cut -d: -f2)"
done
# The x86_64 variants reach String8::setTo through .plt.sec and through the GOT (-fno-plt).
if [ "$arch" = x86 ]; then
	plt_sec() { readelf -S -W "$dir/libhwui-ibt.so" | grep -q ' \.plt\.sec '; }
	got_call() {
		readelf -r -W "$dir/libhwui-noplt.so" | grep 'GLOB_DAT' | grep -q String85setToEPKc &&
			! readelf -r -W "$dir/libhwui-noplt.so" | grep 'JUMP_SLOT' | grep -q String85setTo
	}
	check "libhwui-ibt.so calls through .plt.sec" plt_sec
	check "libhwui-noplt.so calls String8::setTo through a GLOB_DAT GOT slot" got_call
	check "stripped libhwui-ibt.so has no symbols" no_symbols "$dir/libhwui-ibt.so"
	check "stripped libhwui-noplt.so has no symbols" no_symbols "$dir/libhwui-noplt.so"
fi
# The ART fixture: stripped, and its MiniDebugInfo names methods the way ART does.
art_names() { # FILE -> sorted ART-style names in its .gnu_debugdata
	${X}objcopy --dump-section .gnu_debugdata="$tmp/ad.xz" "$1" "$tmp/scratch" &&
		xz -dc "$tmp/ad.xz" >"$tmp/ad.elf" &&
		${X}nm "$tmp/ad.elf" | awk '$3 ~ /^(android|com)\./ {print $3}' | sort
}
cat >"$tmp/artwant" <<'EOF'
android.animation.AnimationHandler.autoCancelBasedOn
android.animation.AnimationHandler.doAnimationFrame
android.animation.AnimatorSet.doAnimationFrame
android.animation.AnimatorSet.handleAnimationEvents
android.animation.AnimatorSet.start
android.animation.AnimatorSet.startAnimation
android.animation.ObjectAnimator.animateValue
android.animation.ObjectAnimator.start
android.animation.ValueAnimator.animateValue
android.animation.ValueAnimator.cancel
android.animation.ValueAnimator.end
android.animation.ValueAnimator.start
android.animation.ValueAnimator.start
android.animation.ValueAnimator.startWithoutPulsing
android.view.Choreographer.doCallbacks
android.view.Choreographer.doFrame
android.view.Choreographer.scheduleVsyncLocked
android.view.ViewPropertyAnimator.start
android.view.ViewPropertyAnimator.startAnimation
com.android.internal.dynamicanimation.animation.DynamicAnimation.cancel
com.android.internal.dynamicanimation.animation.DynamicAnimation.doAnimationFrame
com.android.internal.dynamicanimation.animation.DynamicAnimation.endAnimationInternal
com.android.internal.dynamicanimation.animation.DynamicAnimation.start
com.android.internal.dynamicanimation.animation.SpringAnimation.skipToEnd
com.android.internal.dynamicanimation.animation.SpringAnimation.start
com.example.anim.NotificationPanel.collapse
com.example.anim.NotificationPanel.expand
com.example.anim.NotificationPanel.flip
com.example.anim.PanelAnimator.play
com.example.anim.PanelAnimator.reverse
com.example.anim.PanelAnimator.stop
com.example.anim.QuickSettings.toggle
com.example.anim.ScaleController.finish
com.example.anim.ShadeController.animateExpand
com.example.anim.ToastView.show
com.example.battery.BatteryMeterView.onLevelChanged
com.example.dock.DockView.fling
com.example.dock.DockView.onRelease
com.example.dock.DockView.retarget
com.example.dock.DockView.snapTo
EOF
art_match() { art_names "$1" | diff "$tmp/artwant" -; }
check "stripped boot-framework.oat has no symbols" no_symbols "$dir/boot-framework.oat"
check "boot-framework.oat's MiniDebugInfo holds the ART names, start twice" \
	art_match "$dir/boot-framework.oat"
if ! readelf -d "$dir/animsim" | grep -q NEEDED; then # static: setters live in animsim
	check "static animsim has no symbols" no_symbols "$dir/animsim"
	check "static animsim's MiniDebugInfo holds the setters" names_match "$dir/animsim"
	check "static animsim's MiniDebugInfo holds the ART names" art_match "$dir/animsim"
fi

run_sim() { # runs the x86 or the arm64 (qemu-user) simulator
	if [ "$arch" = arm64 ] && [ "$(uname -m)" != aarch64 ]; then
		qemu-aarch64-static "$dir/animsim" "$@"
	else
		"$dir/animsim" "$@"
	fi
}

if [ "$(id -u)" = 0 ]; then
	check "animsim exits 0" run_sim --name com.android.systemui --decoy com.example.decoy \
		--start-delay-ms 0 --expect "$tmp/expect.jsonl"
	count() { grep -c "$1" "$tmp/expect.jsonl"; }
	check "expect has 90 lines besides the ART calls and the frames' ids" \
		test "$(grep -v '"type":"art"' "$tmp/expect.jsonl" |
			grep -vc '"type":"frame"')" -eq 90
	check "expect gives the 24 frames' vsync ids of each process" \
		test "$(count '"type":"frame"')" -eq 48
	check "token ids (the default): frame 24's is not 1023" \
		test "$(grep -c '"target","frame":24,"vsync":1023}' "$tmp/expect.jsonl")" -eq 0
	check "animsim --scenario cuj --vsync-ids tokens exits 0" run_sim \
		--name com.android.systemui --scenario cuj --vsync-ids tokens --start-delay-ms 0 \
		--art none --expect "$tmp/cuj.jsonl"
	tokens_ok() { # ids rise by 3..12 per frame, and not all by the same
		sed -n 's/.*"type":"frame".*"vsync":\([0-9]*\)}/\1/p' "$tmp/cuj.jsonl" |
			awk 'NR > 1 { d = $1 - p; if (d < 3 || d > 12) bad = 1; seen[d] = 1 }
			     { p = $1 }
			     END { n = 0; for (k in seen) n++; exit bad || n < 2 || NR != 24 }'
	}
	check "token ids rise by 3..12 per vsync, irregularly" tokens_ok
	check "animsim --surfaceflinger exits 0" run_sim --name com.android.systemui \
		--scenario idle --frames 6 --vsync-ids tokens --surfaceflinger --start-delay-ms 0 \
		--expect "$tmp/sf.jsonl"
	check "the fake surfaceflinger writes no expect line" \
		test "$(grep -c '"type":"process"' "$tmp/sf.jsonl")" -eq 1
	check "the cuj scenario says its CUJs: 13 frames, 2 animators; cancelled, 4 frames" grep -q \
		'"type":"cuj",.*"name":"SHADE_EXPAND_COLLAPSE",.*"cancelled":false,"reason":0,.*"frames":13,"animators":2}' \
		"$tmp/cuj.jsonl"
	check "... the second cancelled, 4 frames, 1 animator" grep -q \
		'"type":"cuj",.*"name":"SHADE_ROW_SWIPE",.*"cancelled":true,"reason":16,.*"frames":4,"animators":1}' \
		"$tmp/cuj.jsonl"
	cuj12_ok() { # 12 writes a cancel as an end: no cancel, no reason to say
		run_sim --name com.android.systemui --scenario cuj --cuj-form 12 --start-delay-ms 0 \
			--art none --expect "$tmp/cuj12.jsonl" &&
			grep -q '"SHADE_ROW_SWIPE","begin_vsync":[0-9]*,"cancelled":false,"reason":null' \
				"$tmp/cuj12.jsonl"
	}
	check "animsim --cuj-form 12: the cancel says no reason" cuj12_ok
	check "animsim rejects --cuj-form 11" sh -c '! "$0" --name x --scenario cuj --cuj-form 11' \
		"$dir/animsim"
	check "expect has 16 ART calls" test "$(count '"type":"art"')" -eq 16
	check "the target's animator 168950275 is cancelled by ART at frame 9" grep -q \
		'"target","frame":9,"method":"cancel","cookie":168950275,' "$tmp/expect.jsonl"
	check "the target's scaleY is end()ed at frame 7" grep -q \
		'"target","frame":7,"method":"end","cookie":168950277,' "$tmp/expect.jsonl"
	check "expect has 12 animators" test "$(count '"type":"animator"')" -eq 12
	check "the target's alpha cookie is 0x0a11fa01" \
		grep -q '"target","name":"animator:alpha","cookie":168950273,' "$tmp/expect.jsonl"
	check "frame 5 ends with the fighting alpha" grep -q \
		'"frame":5,.*"alpha","value":0.5,"requested":0.5,"changed":true,"animator":null' \
		"$tmp/expect.jsonl"
	check "frame 6's repeated alpha does not change" test \
		"$(count '"frame":6,.*"alpha".*"changed":false,"animator":null')" -eq 2
	if [ "$arch" = x86 ]; then
		# The child waits for the go file, renamed and set up: look at it, then say go.
		"$dir/animsim" --name com.android.systemui --frames 1 --go "$tmp/go" &
		sim=$!
		child=
		for _ in $(seq 2000); do # polls for at most ~20 s
			child=$(cat /proc/$sim/task/$sim/children 2>/dev/null); child=${child%% *}
			[ -n "$child" ] && [ "$(cat /proc/$child/comm 2>/dev/null)" = \
				ndroid.systemui ] && break
			sleep 0.01
		done
		check "the child's comm is the package's last 15 chars" \
			test "$(cat /proc/$child/comm)" = ndroid.systemui
		check "the child's cmdline is the package" \
			test "$(tr '\0' '\n' <"/proc/$child/cmdline" | head -1)" = \
			com.android.systemui
		check "the child's cmdline is NUL after the name" \
			test "$(tr -d '\0' </proc/$child/cmdline)" = com.android.systemui
		check "the child maps libhwui.so" grep -q '/libhwui\.so$' /proc/$child/maps
		check "the child maps boot-framework.oat" \
			grep -q '/boot-framework\.oat$' /proc/$child/maps
		: >"$tmp/go"
		check "animsim plays and exits 0 after go" wait $sim
	fi
else
	echo "check.sh: not root, animsim runs skipped" >&2
fi

echo "sim-check: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
