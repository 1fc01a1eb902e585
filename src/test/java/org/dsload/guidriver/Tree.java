package org.dsload.guidriver;

import java.awt.event.ActionEvent;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import javax.swing.JComponent;
import javax.swing.JMenu;
import javax.swing.JMenuItem;
import javax.swing.MenuElement;
import javax.swing.tree.TreePath;

import org.apache.jmeter.gui.GuiPackage;
import org.apache.jmeter.gui.JMeterGUIComponent;
import org.apache.jmeter.gui.action.ActionNames;
import org.apache.jmeter.gui.action.Load;
import org.apache.jmeter.gui.tree.JMeterTreeNode;
import org.apache.jmeter.gui.util.MenuFactory;
import org.apache.jmeter.save.SaveService;
import org.apache.jmeter.services.FileServer;
import org.apache.jmeter.testelement.TestElement;
import org.apache.jorphan.collections.HashTree;
import org.apache.jorphan.collections.ListedHashTree;

/** The plan tree of JMeter's GUI, used as a user uses it: open, click, Add > menu > item, save. */
final class Tree {
    private Tree() {
    }

    static List<JMenuItem> items(MenuElement menu) {
        List<JMenuItem> items = new ArrayList<>();
        for (MenuElement e : menu.getSubElements()) {
            if (e instanceof JMenu sub) {
                items.addAll(items(sub));
            } else if (e instanceof JMenuItem item) {
                items.add(item);
            } else {
                items.addAll(items(e));
            }
        }
        return items;
    }

    static void load(Path plan) throws Exception {
        // What File > Open does, without the file chooser.
        HashTree tree = SaveService.loadTree(plan.toFile());
        Edt.run(() -> {
            try {
                FileServer.getFileServer().setBaseForScript(plan.toFile());
                Load.insertLoadedTree(ActionEvent.ACTION_PERFORMED, tree);
                GuiPackage.getInstance().setTestPlanFile(plan.toAbsolutePath().toString());
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        Edt.settle();
    }

    static boolean isDsload(TestElement element) {
        String gui = element.getPropertyAsString(TestElement.GUI_CLASS);
        return element.getClass().getName().startsWith("org.dsload.") || gui.startsWith("org.dsload.");
    }

    /** The Test Plan at the top of the tree (the tree's own root is hidden). */
    static JMeterTreeNode planNode() {
        return Edt.call(() -> (JMeterTreeNode) ((JMeterTreeNode) GuiPackage.getInstance().getTreeModel().getRoot())
                .getChildAt(0));
    }

    static List<JMeterTreeNode> nodes() {
        return Edt.call(() -> {
            List<JMeterTreeNode> nodes = new ArrayList<>();
            JMeterTreeNode root = (JMeterTreeNode) GuiPackage.getInstance().getTreeModel().getRoot();
            for (Enumeration<?> e = root.preorderEnumeration(); e.hasMoreElements();) {
                nodes.add((JMeterTreeNode) e.nextElement());
            }
            return nodes;
        });
    }

    /** Selects a node as a click in the tree does and waits until its panel shows. */
    static JComponent select(JMeterTreeNode node) {
        Edt.run(() -> {
            TreePath path = new TreePath(node.getPath());
            GuiPackage.getInstance().getMainFrame().getTree().setSelectionPath(path);
            GuiPackage.getInstance().getMainFrame().getTree().scrollPathToVisible(path);
        });
        Edt.settle();
        AtomicReference<JComponent> panel = new AtomicReference<>();
        Edt.await("the panel of '" + node.getName() + "'", Edt.STEP, () -> {
            JMeterGUIComponent gui = GuiPackage.getInstance().getGui(node.getTestElement());
            boolean shown = gui instanceof JComponent c && c.isShowing()
                    && GuiPackage.getInstance().getTreeListener().getCurrentNode() == node
                    && node.getName().equals(gui.getName());
            if (shown) {
                panel.set((JComponent) gui);
            }
            return shown;
        });
        return panel.get();
    }

    /**
     * Shows every element's form once and leaves it, which is when JMeter writes a form into its
     * element, and returns the plan as File > Save would write it.
     */
    static HashTree shownOnce() {
        for (JMeterTreeNode node : nodes()) {
            if (node.getParent() != null) {
                select(node);
            }
        }
        select(planNode());
        Edt.run(() -> GuiPackage.getInstance().updateCurrentNode());
        return Edt.call(Tree::currentPlan);
    }

    static JMenuItem threadGroupItem() {
        return Edt.call(() -> items(MenuFactory.makeMenu(MenuFactory.THREADS, ActionNames.ADD)).stream()
                .filter(i -> org.apache.jmeter.threads.gui.ThreadGroupGui.class.getName().equals(i.getName()))
                .findFirst().orElseThrow(() -> new IllegalStateException("no Thread Group in the Threads menu")));
    }

    /** Adds an element under a node as Add > menu > item does, and returns the new node. */
    static JMeterTreeNode add(JMeterTreeNode parent, JMenuItem item) {
        select(parent);
        int before = Edt.call(parent::getChildCount);
        Edt.run(item::doClick);
        Edt.settle();
        Edt.await("'" + item.getText() + "' to be added", Edt.STEP, () -> parent.getChildCount() == before + 1);
        return Edt.call(() -> (JMeterTreeNode) parent.getChildAt(before));
    }

    /** The plan in the tree as elements, as File > Save writes it (from the Test Plan down). */
    static HashTree currentPlan() {
        HashTree tree = new ListedHashTree();
        addNode(tree, (JMeterTreeNode) ((JMeterTreeNode) GuiPackage.getInstance().getTreeModel().getRoot()).getChildAt(0));
        return tree;
    }

    static void addNode(HashTree parent, JMeterTreeNode node) {
        HashTree sub = parent.add(node.getTestElement());
        for (int i = 0; i < node.getChildCount(); i++) {
            addNode(sub, (JMeterTreeNode) node.getChildAt(i));
        }
    }
}
